// Everything the call core and its entry points need, built once by the gateway and passed in.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../domain/clock.ts'
import type { GenerationStore } from '../generations/generation-store.ts'
import type { DurableSettlements } from '../accounting/durable-settlements.ts'
import type { RoutingState } from './routing/plan-route.ts'
import type { UpstreamTransport } from './upstream/upstream-transport.ts'
import type { GenerationTrace } from '../observability/generation-trace.ts'
import type { ContentFilterFinding } from '../guardrails/content-filter-engine.ts'
import type { CallPolicy } from './call/call-policy.ts'
import type { ServerToolsDeps } from './server-tools/server-tools-deps.ts'
import type { GenerationIds } from './generation-ids.ts'
import type { GenerationRecord } from '../generations/generation-record.ts'
import type { ResponseCache } from '../response-cache/response-cache.ts'
import type { ResponseCacheSetting } from '../config/config.ts'

export interface InferenceDeps {
  readonly clock: Clock
  /** One per process, so every entry point's ids share the counting prefix. */
  readonly generationIds: GenerationIds
  readonly logger: FastifyBaseLogger
  readonly routing: RoutingState
  readonly transport: UpstreamTransport
  readonly generations: GenerationStore
  /** Awaited before the end of an answer leaves: the call's ledger rows and generation record are committed. */
  readonly settlements: DurableSettlements
  /** The policy of every call (spend limits, guardrails, workspace settings, presets, tokens per minute). */
  readonly policy: CallPolicy
  /** The response cache every call may use, and the gateway's bounds on it (config `cache`). */
  readonly responseCaching: { readonly cache: ResponseCache; readonly limits: ResponseCacheSetting }
  /** Told the flag and redact rules a call's input matched (metrics); must not throw. */
  readonly onContentFilterMatches?: (findings: readonly ContentFilterFinding[]) => void
  /** Told every finished call's record, once (metrics: tokens, cost, attempts; endpoint health); must not throw. */
  readonly onRecorded?: (record: GenerationRecord) => void
  /** Called once per finished generation (observability broadcast); must not throw or block. */
  readonly onGeneration?: (trace: GenerationTrace) => void
  /** Server tools (`openrouter:*` in /responses); absent = requests naming them are refused. */
  readonly serverTools?: ServerToolsDeps
}
