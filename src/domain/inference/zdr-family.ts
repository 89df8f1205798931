// The provider families a zero-data-retention guardrail rule names. Each provider API declares the
// family its providers belong to (OpenAI and xAI providers are told apart by their slug).

export const zdrFamilies = ['anthropic', 'openai', 'google', 'xai', 'other'] as const

export type ZdrFamily = (typeof zdrFamilies)[number]
