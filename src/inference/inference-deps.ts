// Everything the inference routes need, built once by the gateway and passed in.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../domain/clock.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { GenerationStore } from '../generations/generation-store.ts'
import type { RoutingState } from './routing/plan-route.ts'
import type { UpstreamTransport } from './upstream/upstream-transport.ts'
import type { GenerationTrace } from '../observability/generation-trace.ts'

/** The accounting core as the inference path uses it (src/accounting/accounting-service.ts). */
export interface InferenceAccounting {
  reserve(input: { key: ApiKeyRecord; generationId: string; attempt: number; worstCaseNano: bigint; isByok: boolean }): Promise<SpendReservation>
  settle(reservation: SpendReservation, input: SettleSpend): Promise<void>
  release(reservation: SpendReservation): Promise<void>
}

export interface SpendReservation {
  readonly id: string
  readonly amountNano: bigint
}

export interface SettleSpend {
  readonly costNano: bigint
  readonly model: string
  readonly provider: string
  readonly promptTokens?: number
  readonly completionTokens?: number
  readonly reasoningTokens?: number
  readonly cachedTokens?: number
  readonly cacheWriteTokens?: number
  readonly endUser?: string | null
}

/** Tokens-per-minute limits (src/rate-limits/rate-limit-policy.ts): estimated input up front, the rest after. */
export interface InferenceTokenLimits {
  /** Throws GatewayError `rate_limited` when the estimate does not fit. */
  admitTokens(key: ApiKeyRecord, estimatedTokens: number): Promise<TokenCharge | null>
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
  /** Whether this call's input and output are stored (IO logging, sampling, key allowlist). */
  shouldStoreContent(key: ApiKeyRecord, generationId: string): boolean
}

export interface InferenceDeps {
  readonly clock: Clock
  readonly logger: FastifyBaseLogger
  readonly routing: RoutingState
  readonly transport: UpstreamTransport
  readonly accounting: InferenceAccounting
  readonly generations: GenerationStore
  readonly workspaceSettings: (key: ApiKeyRecord) => WorkspaceInferenceSettings
  readonly tokenLimits?: InferenceTokenLimits
  /** Told every upstream attempt of a finished call (metrics); must not throw. */
  readonly onAttempts?: (attempts: readonly { readonly provider: string; readonly status: number }[]) => void
  /** Called once per finished generation (observability broadcast); must not throw or block. */
  readonly onGeneration?: (trace: GenerationTrace) => void
}
