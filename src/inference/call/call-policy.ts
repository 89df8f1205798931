// The policy every call is held to: spend limits (reserve/settle/release against the key limit, credits,
// guardrail and workspace budgets), guardrail rules, workspace settings, presets and tokens per minute.
// It is one required object of the core's dependencies, so no entry point can leave a part out; a caller
// that wants no policy passes a permissive one.
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { EffectiveRules } from '../../guardrails/effective-rules.ts'
import type { AccountingService, Reservation } from '../../accounting/accounting-service.ts'
import type { CachedPreset } from '../../presets/preset-cache.ts'
import type { UsagePeriod } from '../../accounting/key-scopes.ts'
import type { CacheSettings } from './cache-choice.ts'

/** The accounting core as calls use it (src/accounting/accounting-service.ts). */
export type InferenceAccounting = Pick<AccountingService, 'reserve' | 'settle' | 'release'>
export type SpendReservation = Reservation

/** Rate limits of calls (src/rate-limits/rate-limit-policy.ts): the call up front, its estimated input before it goes to a provider, the rest of its tokens after. */
export interface InferenceTokenLimits {
  /** Counts the call against its requests-per-minute rules; throws GatewayError `rate_limited` when over. */
  admitCall(key: ApiKeyRecord, model: string): Promise<void>
  /** Charges the estimated input of a call that goes to a provider; throws GatewayError `rate_limited` when over. */
  chargeInput(key: ApiKeyRecord, model: string, estimatedTokens: number): Promise<TokenCharge | null>
  settleTokens(charge: TokenCharge, actualTokens: number): Promise<void>
}

export interface TokenCharge {
  readonly estimated: number
}

export interface WorkspaceBudget {
  readonly interval: UsagePeriod
  readonly limitUsd: string
}

/** Workspace settings a call reads from memory. */
export interface WorkspaceInferenceSettings {
  readonly defaultTextModel: string | null
  readonly defaultProviderSort: 'price' | 'throughput' | 'latency' | null
  readonly disabledServerTools: readonly string[]
  /** The workspace's budgets (daily, weekly, monthly, lifetime), reserved against with every call. */
  readonly budgets: readonly WorkspaceBudget[]
  /** Whether this call's input and output are stored (IO logging, sampling, key allowlist). */
  shouldStoreContent(key: ApiKeyRecord, generationId: string): boolean
}

/** The designated version of a workspace's preset, for `@preset/<slug>` and `preset`. */
export type PresetLookup = (workspaceId: string, slug: string) => CachedPreset | undefined

export interface CallPolicy {
  readonly accounting: InferenceAccounting
  /** The effective guardrail rules of a key (key + member + workspace default guardrails). */
  readonly guardrailRules: (key: ApiKeyRecord) => EffectiveRules
  readonly workspaceSettings: (key: ApiKeyRecord) => WorkspaceInferenceSettings
  readonly presets: PresetLookup
  readonly tokenLimits: InferenceTokenLimits
  /** The response-cache settings of a key and of its workspace (src/inference/call/cache-choice.ts). */
  readonly cacheSettings: (key: ApiKeyRecord) => { readonly key: CacheSettings; readonly workspace: CacheSettings }
}
