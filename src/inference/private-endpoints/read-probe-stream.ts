// Reads a probe's streamed answer through the adapter's framing and stream parser and judges it: it must end with
// message-end, carry some output and report no stream error. Also returns the usage it reported.
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import type { ProviderAdapter } from '../../providers/provider-adapter.ts'
import { createFramer } from '../../providers/framing.ts'
import type { UpstreamAnswer } from '../upstream/upstream-transport.ts'

export interface ProbeStream {
  /** Why the stream is not usable, or null. */
  readonly problem: string | null
  readonly usage: Usage | null
}

export async function readProbeStream(adapter: ProviderAdapter, answer: UpstreamAnswer): Promise<ProbeStream> {
  const framer = createFramer(adapter.framing)
  const parser = adapter.createStreamParser()
  const events: StreamEvent[] = []
  try {
    for await (const chunk of answer.body) {
      for (const frame of framer.push(chunk as Buffer)) events.push(...parser.push(frame))
    }
    for (const frame of framer.end()) events.push(...parser.push(frame))
    events.push(...parser.end())
  } catch (error) {
    return { problem: `the stream broke off: ${(error as Error).message}`, usage: null }
  }
  return { problem: streamProblem(events), usage: lastUsage(events) }
}

function streamProblem(events: readonly StreamEvent[]): string | null {
  const error = events.find((event) => event.type === 'stream-error')
  if (error !== undefined && error.type === 'stream-error') return `the stream reported an error: ${error.message}`
  if (!events.some((event) => event.type === 'message-end')) return 'the stream ended without finishing the message'
  const hasOutput = events.some(
    (event) => (event.type === 'text-delta' && event.delta !== '') || event.type === 'tool-call-start',
  )
  return hasOutput ? null : 'the stream carried no output'
}

function lastUsage(events: readonly StreamEvent[]): Usage | null {
  let usage: Usage | null = null
  for (const event of events) if (event.type === 'usage-report') usage = event.usage
  return usage
}
