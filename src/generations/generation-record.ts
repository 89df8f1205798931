// What is recorded about every inference call, whatever its outcome.
import type { AttemptRecord } from '../domain/inference/attempt-record.ts'

export type GenerationStatus = 'completed' | 'failed' | 'cancelled'
export type GenerationApiType = 'completions' | 'embeddings' | 'decisions'

export interface GenerationRecord {
  readonly id: string
  readonly requestId: string | null
  readonly organizationId: string
  readonly workspaceId: string
  readonly keyHash: string
  readonly apiType: GenerationApiType
  readonly dialect: string
  readonly model: string
  readonly provider: string | null
  readonly upstreamModelId: string | null
  readonly upstreamId: string | null
  readonly streamed: boolean
  readonly cancelled: boolean
  readonly status: GenerationStatus
  readonly finishReason: string | null
  readonly nativeFinishReason: string | null
  readonly tokensPrompt: number
  readonly tokensCompletion: number
  readonly tokensCached: number
  readonly tokensReasoning: number
  /** What was billed: the priced usage, at most the reservation. */
  readonly costNano: bigint
  /** What the provider's reported usage priced above the reservation, left unbilled. */
  readonly unbilledExcessNano: bigint
  /** The generation whose cached answer this one replayed (a response-cache hit); null otherwise. */
  readonly responseCacheSourceId: string | null
  readonly isByok: boolean
  readonly latencyMs: number | null
  readonly generationTimeMs: number | null
  readonly sessionId: string | null
  readonly endUser: string | null
  readonly preset: string | null
  readonly serviceTier: string | null
  readonly attempts: readonly AttemptRecord[]
  readonly errorStatus: number | null
  readonly errorMessage: string | null
  readonly httpReferer: string | null
  readonly userAgent: string | null
  readonly createdAt: string
}

export interface GenerationContent {
  readonly input:
    { readonly messages: readonly { readonly role: string; readonly content: unknown }[] } | { readonly prompt: string }
  readonly completion: string | null
  readonly reasoning: string | null
  readonly error: {
    readonly status: number | null
    readonly message: string | null
    readonly provider_name: string | null
  } | null
}
