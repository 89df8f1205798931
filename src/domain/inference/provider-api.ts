// The upstream wire protocols Switchyard speaks. Config names a provider's `api`; the provider registry
// has exactly one adapter per member, so adding one forces an adapter to exist.

export type ProviderApi = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini'

export const providerApis: readonly ProviderApi[] = ['openai-chat', 'openai-responses', 'anthropic', 'gemini']
