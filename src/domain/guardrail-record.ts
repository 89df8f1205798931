// A guardrail as the gateway holds it: the rules one guardrail imposes on the keys and members assigned
// to it (and, for a workspace's default guardrail, on every request of that workspace).

export const contentFilterActions = ['redact', 'block', 'flag'] as const
export type ContentFilterAction = (typeof contentFilterActions)[number]

export const builtinFilterSlugs = [
  'email',
  'phone',
  'ssn',
  'credit-card',
  'ip-address',
  'secrets',
  'person-name',
  'address',
  'regex-prompt-injection',
] as const
export type BuiltinFilterSlug = (typeof builtinFilterSlugs)[number]

export const scanScopes = ['user_only', 'all_messages'] as const
export type ScanScope = (typeof scanScopes)[number]

export const dataRegions = ['global', 'europe', 'us'] as const
export type DataRegion = (typeof dataRegions)[number]

export const guardrailIntervals = ['daily', 'weekly', 'monthly'] as const
export type GuardrailInterval = (typeof guardrailIntervals)[number]

/** The read-only replacement label of each builtin, shown on the wire and used by redaction. */
export const builtinLabels: Readonly<Record<BuiltinFilterSlug, string>> = {
  email: '[EMAIL]',
  phone: '[PHONE]',
  ssn: '[SSN]',
  'credit-card': '[CREDIT_CARD]',
  'ip-address': '[IP_ADDRESS]',
  secrets: '[SECRET]',
  'person-name': '[PERSON_NAME]',
  address: '[ADDRESS]',
  'regex-prompt-injection': '[PROMPT_INJECTION]',
}

/** Label used when redacting a custom pattern that has none. */
export const defaultPatternLabel = '[REDACTED]'

export interface PatternFilter {
  readonly pattern: string
  readonly action: ContentFilterAction
  readonly label: string | null
}

export interface BuiltinFilter {
  readonly slug: BuiltinFilterSlug
  readonly action: ContentFilterAction
  /** Only meaningful for regex-prompt-injection; the other builtins scan every message. */
  readonly scanScope: ScanScope
}

/** Zero-data-retention requirements per provider family; null = not set by this guardrail. */
export interface ZdrFlags {
  readonly all: boolean | null
  readonly anthropic: boolean | null
  readonly openai: boolean | null
  readonly google: boolean | null
  readonly xai: boolean | null
  readonly other: boolean | null
}

export interface GuardrailRecord {
  readonly id: string
  readonly organizationId: string
  readonly workspaceId: string | null
  readonly name: string
  readonly description: string | null
  /** USD, decimal string. */
  readonly limitUsd: string | null
  readonly resetInterval: GuardrailInterval | null
  readonly includeByokInBudgets: boolean
  readonly allowedModels: readonly string[] | null
  readonly ignoredModels: readonly string[] | null
  readonly allowedProviders: readonly string[] | null
  readonly ignoredProviders: readonly string[] | null
  readonly allowedDataRegions: readonly DataRegion[] | null
  readonly contentFilters: readonly PatternFilter[] | null
  readonly contentFilterBuiltins: readonly BuiltinFilter[] | null
  readonly enforceZdr: ZdrFlags
  readonly enableFreeModelPublication: boolean | null
  readonly enableFreeModelTraining: boolean | null
  readonly enablePaidModelTraining: boolean | null
  readonly createdAt: string
  readonly updatedAt: string | null
}
