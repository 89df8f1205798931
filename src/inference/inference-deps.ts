// Everything the inference routes need, built once by the gateway and passed in.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../domain/clock.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { GenerationStore } from '../generations/generation-store.ts'
import type { RoutingState } from './routing/plan-route.ts'
import type { UpstreamTransport } from './upstream/upstream-transport.ts'
import type { GenerationTrace } from '../observability/generation-trace.ts'
import type { ServerToolsDeps } from './server-tools/server-tools-deps.ts'

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
  /** Called once per finished generation (observability broadcast); must not throw or block. */
  readonly onGeneration?: (trace: GenerationTrace) => void
  /** Server tools (`openrouter:*` in /responses); absent = requests naming them are refused. */
  readonly serverTools?: ServerToolsDeps
}
