// Tries the planned endpoints in order: a retryable failure (429, 5xx, timeout, reset) moves on to the
// next endpoint, never the same one twice in a request; anything else, or running out of endpoints,
// surfaces the last failure. Every attempt is recorded for routing metadata and the breaker.
import type { CanonicalCall } from '../../domain/inference/call.ts'
import type { Clock } from '../../domain/clock.ts'
import type { AttemptRecord } from '../../domain/inference/attempt-record.ts'
import type { RouteCandidate, RoutingState } from '../routing/plan-route.ts'
import { AttemptError } from './attempt-error.ts'
import { classifyAttemptFailure } from './attempt-failure.ts'
import { callEndpoint, type EndpointOutcome } from './call-endpoint.ts'
import type { UpstreamTransport } from './upstream-transport.ts'
import type { CancelSignal } from '../../domain/cancellation.ts'

export type { AttemptRecord } from '../../domain/inference/attempt-record.ts'

export interface CalledEndpoint {
  readonly candidate: RouteCandidate
  readonly outcome: EndpointOutcome
  readonly attempts: readonly AttemptRecord[]
  /** Milliseconds from the first attempt's start to the chosen endpoint's response headers. */
  readonly latencyMs: number
}

export interface CallWithFallbacksInput {
  readonly candidates: readonly RouteCandidate[]
  readonly call: Omit<CanonicalCall, 'model'>
  readonly signal: CancelSignal
  readonly sessionKey: string | null
}

export interface FallbackDeps {
  readonly transport: UpstreamTransport
  readonly routing: RoutingState
  readonly clock: Clock
}

export class AllAttemptsFailed extends AttemptError {
  readonly attempts: readonly AttemptRecord[]
  constructor(last: AttemptError, attempts: readonly AttemptRecord[]) {
    super(last.kind, last.message, last.upstreamStatus, last.retryAfterSeconds, last)
    this.attempts = attempts
  }
}

export async function callWithFallbacks(input: CallWithFallbacksInput, deps: FallbackDeps): Promise<CalledEndpoint> {
  return tryCandidates(
    input,
    (endpoint) => callEndpoint({ endpoint, call: input.call, signal: input.signal, transport: deps.transport }),
    deps,
  )
}

export interface TriedCandidate<T> {
  readonly candidate: RouteCandidate
  readonly outcome: T
  readonly attempts: readonly AttemptRecord[]
  readonly latencyMs: number
}

/** The fallback loop for any kind of upstream call (chat, embeddings): `attempt` makes one try at one endpoint. */
export async function tryCandidates<T>(
  input: { readonly candidates: readonly RouteCandidate[]; readonly sessionKey: string | null },
  attempt: (endpoint: RouteCandidate['endpoint']) => Promise<T>,
  deps: Omit<FallbackDeps, 'transport'>,
): Promise<TriedCandidate<T>> {
  const attempts: AttemptRecord[] = []
  const started = deps.clock.now().getTime()
  let last: AttemptError | null = null
  for (const candidate of input.candidates) {
    const { endpoint, model } = candidate
    if (!deps.routing.breaker.tryAcquire(endpoint.id)) continue
    const attemptStart = deps.clock.now().getTime()
    try {
      const outcome = await attempt(endpoint)
      const now = deps.clock.now().getTime()
      deps.routing.breaker.recordSuccess(endpoint.id)
      deps.routing.stats.recordLatency(endpoint.id, now - attemptStart)
      if (input.sessionKey !== null) deps.routing.sticky.remember(input.sessionKey, endpoint.id)
      attempts.push({
        model: model.slug,
        provider: endpoint.provider.slug,
        endpointId: endpoint.id,
        status: 200,
        latencyMs: now - attemptStart,
      })
      return { candidate, outcome, attempts, latencyMs: now - started }
    } catch (error) {
      if (!(error instanceof AttemptError)) throw error
      attempts.push({
        model: model.slug,
        provider: endpoint.provider.slug,
        endpointId: endpoint.id,
        status: error.upstreamStatus ?? error.status,
        latencyMs: deps.clock.now().getTime() - attemptStart,
        failure: classifyAttemptFailure(error),
      })
      if (error.isRetryable) deps.routing.breaker.recordFailure(endpoint.id)
      else deps.routing.breaker.recordSuccess(endpoint.id)
      last = error
      if (!error.isRetryable) break
    }
  }
  if (last === null)
    last = new AttemptError(
      'unavailable',
      'Every endpoint for this model is cooling down after failures; retry shortly',
      null,
    )
  throw new AllAttemptsFailed(last, attempts)
}
