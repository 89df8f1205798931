// "Send test event": one synthetic generation built for a destination (its flags apply, as to a real
// one: privacy mode, cost, identity) and sent now through its exporter, the one deliveries use. The
// answer says whether the destination took it, or what it said. Nothing is written: no outbox row, no
// delivery count, no last_error, no ledger entry or generation record. Filter rules, sampling, regions
// and the enabled flag do not apply, so a destination can be tried before it is switched on.
import { randomUUID } from 'node:crypto'
import type { Clock } from '../domain/clock.ts'
import type { EgressPolicy } from '../http/egress-policy.ts'
import { buildDestinationRecord } from './build-destination-record.ts'
import type { Destination } from './destination.ts'
import { exportTarget, failureMessage, failureStatus } from './export-records.ts'
import type { Exporters } from './exporters/exporter.ts'
import type { GenerationTrace } from './generation-trace.ts'

export const testEventModel = 'switchyard/test-event'

export interface TestEventOutcome {
  readonly generationId: string
  readonly delivered: boolean
  /** Why the destination did not take it (its answer, or why it could not be reached); null when delivered. */
  readonly error: { readonly message: string; readonly status: number | null } | null
}

export interface TestEventDeps {
  readonly exporters: Exporters
  readonly egress: EgressPolicy
  readonly clock: Clock
  readonly timeoutMs: number
}

/** The synthetic generation: recognisable by its id prefix, model and key name; costs nothing. */
export function testEventTrace(destination: Destination, now: Date): GenerationTrace {
  const at = now.toISOString()
  return {
    generationId: `gen-test-${randomUUID()}`,
    requestId: `req-test-${randomUUID()}`,
    workspaceId: destination.workspaceId,
    apiKeyHash: '0'.repeat(64),
    apiKeyName: 'switchyard test event',
    model: testEventModel,
    provider: 'switchyard',
    timing: { startedAt: at, endedAt: at, latencyMs: 0, timeToFirstTokenMs: null },
    usage: { promptTokens: 9, completionTokens: 6, cachedTokens: 0, reasoningTokens: 0 },
    finishReason: 'stop',
    sessionId: null,
    user: null,
    costUsd: 0,
    costAllocation: null,
    requestContext: { headers: {}, trace: null },
    input: { messages: [{ role: 'user', content: 'This is a test event from Switchyard.' }] },
    output: { text: `Test event for destination ${destination.id}.`, reasoning: null },
  }
}

/** Sends the test event; never throws for the destination's failure (the outcome carries it). */
export async function sendTestEvent(destination: Destination, deps: TestEventDeps): Promise<TestEventOutcome> {
  const exporter = deps.exporters[destination.type]
  if (exporter === null) throw new Error(`no exporter delivers destinations of type ${destination.type}`)
  const now = deps.clock.now()
  const trace = testEventTrace(destination, now)
  const payload = { record: buildDestinationRecord(trace, destination), apiKeyName: trace.apiKeyName }
  const context = { egress: deps.egress, timeoutMs: deps.timeoutMs, now }
  try {
    await exporter.deliver(payload, exportTarget(destination), context)
    return { generationId: trace.generationId, delivered: true, error: null }
  } catch (error) {
    return {
      generationId: trace.generationId,
      delivered: false,
      error: { message: failureMessage(error), status: failureStatus(error) },
    }
  }
}
