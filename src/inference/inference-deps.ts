// Everything the inference routes need, built once by the gateway and passed in.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../domain/clock.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { GenerationStore } from '../generations/generation-store.ts'
import type { RoutingState } from './routing/plan-route.ts'
import type { UpstreamTransport } from './upstream/upstream-transport.ts'
import type { GenerationTrace } from '../observability/generation-trace.ts'
import type { EffectiveRules } from '../guardrails/effective-rules.ts'
import type { ContentFilterFinding } from '../guardrails/content-filter-engine.ts'
import type { AccountingService, Reservation } from '../accounting/accounting-service.ts'
import type { DurableSettlements } from '../accounting/durable-settlements.ts'
import type { PresetLookup } from './pipeline/resolve-preset.ts'
import type { WorkspaceBudget } from './pipeline/budget-scopes.ts'
import type { ServerToolsDeps } from './server-tools/server-tools-deps.ts'
import type { GenerationIds } from './generation-ids.ts'

/** The accounting core as the inference path uses it (src/accounting/accounting-service.ts). */
export type InferenceAccounting = Pick<AccountingService, 'reserve' | 'settle' | 'release'>
export type SpendReservation = Reservation

/** Tokens-per-minute limits (src/rate-limits/rate-limit-policy.ts): estimated input up front, the rest after. */
export interface InferenceTokenLimits {
  /** Counts the call against its rate-limit rules and charges its estimate; throws GatewayError `rate_limited` when over. */
  admitCall(key: ApiKeyRecord, model: string, estimatedTokens: number): Promise<TokenCharge | null>
  settleTokens(charge: TokenCharge, actualTokens: number): Promise<void>
}

export interface TokenCharge {
  readonly estimated: number
}

/** Workspace settings the inference path reads from memory. */
export interface WorkspaceInferenceSettings {
  readonly defaultTextModel: string | null
  readonly defaultProviderSort: 'price' | 'throughput' | 'latency' | null
  readonly disabledServerTools: readonly string[]
  /** The workspace's budgets (daily, weekly, monthly, lifetime), reserved against with every call. */
  readonly budgets: readonly WorkspaceBudget[]
  /** Whether this call's input and output are stored (IO logging, sampling, key allowlist). */
  shouldStoreContent(key: ApiKeyRecord, generationId: string): boolean
}

export interface InferenceDeps {
  readonly clock: Clock
  /** One per process, so every entry point's ids share the counting prefix. */
  readonly generationIds: GenerationIds
  readonly logger: FastifyBaseLogger
  readonly routing: RoutingState
  readonly transport: UpstreamTransport
  readonly accounting: InferenceAccounting
  readonly generations: GenerationStore
  /** Awaited before the end of an answer leaves: the call's ledger rows and generation record are committed. */
  readonly settlements: DurableSettlements
  readonly workspaceSettings: (key: ApiKeyRecord) => WorkspaceInferenceSettings
  // The policy of every call, required so that no entry point can leave one out: a caller that wants
  // none passes a permissive one (no guardrail, no preset, no token limit).
  /** The effective guardrail rules of a key (key + member + workspace default guardrails). */
  readonly guardrailRules: (key: ApiKeyRecord) => EffectiveRules
  /** The designated version of a workspace's preset, for `@preset/<slug>` and `preset`. */
  readonly presets: PresetLookup
  readonly tokenLimits: InferenceTokenLimits
  /** Told the flag and redact rules a call's input matched (metrics); must not throw. */
  readonly onContentFilterMatches?: (findings: readonly ContentFilterFinding[]) => void
  /** Told every upstream attempt of a finished call (metrics); must not throw. */
  readonly onAttempts?: (attempts: readonly { readonly provider: string; readonly status: number }[]) => void
  /** Called once per finished generation (observability broadcast); must not throw or block. */
  readonly onGeneration?: (trace: GenerationTrace) => void
  /** Server tools (`openrouter:*` in /responses); absent = requests naming them are refused. */
  readonly serverTools?: ServerToolsDeps
}
