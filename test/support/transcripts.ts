// Replays recorded upstream bytes (`__transcripts__/<scenario>/upstream.sse`) through SSE framing and a
// provider's stream parser, split into two chunks at every byte offset.

import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import assert from 'node:assert/strict'
import type { StreamEvent } from '../../src/domain/inference/stream-event.ts'
import type { StreamParser } from '../../src/providers/provider-adapter.ts'
import { createSseFramer } from '../../src/providers/sse-framing.ts'

export interface Transcript {
  readonly scenario: string
  readonly upstream: Uint8Array
  readonly expected: readonly StreamEvent[]
}

export function loadTranscripts(directory: string): Transcript[] {
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({
      scenario: entry.name,
      upstream: new Uint8Array(readFileSync(join(directory, entry.name, 'upstream.sse'))),
      expected: JSON.parse(readFileSync(join(directory, entry.name, 'expected-events.json'), 'utf8')) as StreamEvent[],
    }))
}

/** Feeds the chunks through a fresh framer and parser and returns every event, end() included. */
export function replayChunks(chunks: readonly Uint8Array[], parser: StreamParser): StreamEvent[] {
  const framer = createSseFramer()
  const events: StreamEvent[] = []
  for (const chunk of chunks) for (const sse of framer.push(chunk)) events.push(...parser.push(sse))
  for (const sse of framer.end()) events.push(...parser.push(sse))
  events.push(...parser.end())
  return events
}

/** Asserts the expected events for the whole body and for every two-chunk split of it. */
export function assertEverySplit(transcript: Transcript, createParser: () => StreamParser): void {
  const bytes = transcript.upstream
  assert.deepEqual(replayChunks([bytes], createParser()), transcript.expected, `${transcript.scenario}: whole body`)
  for (let offset = 1; offset < bytes.length; offset++) {
    const events = replayChunks([bytes.subarray(0, offset), bytes.subarray(offset)], createParser())
    assert.deepEqual(events, transcript.expected, `${transcript.scenario}: split at byte ${offset}`)
  }
}
