// The upstream wire protocols Switchyard speaks: the one closed set. Config names a provider's `api`
// (the config schema is built from `providerApis`); the provider registry has exactly one adapter per
// member, so adding one forces an adapter to exist.

export const providerApis = [
  'openai-chat',
  'openai-responses',
  'anthropic',
  'gemini',
  'azure-openai',
  'bedrock',
  'vertex',
] as const

export type ProviderApi = (typeof providerApis)[number]

/**
 * The formats whose reasoning proofs (signatures, encrypted content) an upstream issues and accepts
 * back. A provider API that hosts another's models reports that family (Claude's signatures are valid
 * on Anthropic, Bedrock and Vertex alike), so a new provider API adds no origin.
 */
export const reasoningOrigins = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const

export type ReasoningOrigin = (typeof reasoningOrigins)[number]
