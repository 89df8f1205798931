// Replays recorded upstream bytes (`__transcripts__/<scenario>/upstream.sse`, or `upstream.eventstream`
// for AWS event-stream bodies) through the matching framing and a provider's stream parser, split into
// two chunks at every byte offset.

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import assert from 'node:assert/strict'
import type { StreamEvent } from '../../src/domain/inference/stream-event.ts'
import { createFramer } from '../../src/providers/framing.ts'
import type { Framing, StreamParser } from '../../src/providers/provider-adapter.ts'

export interface Transcript {
  readonly scenario: string
  readonly framing: Framing
  readonly upstream: Uint8Array
  readonly expected: readonly StreamEvent[]
}

export function loadTranscripts(directory: string): Transcript[] {
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const eventStream = join(directory, entry.name, 'upstream.eventstream')
      const framing: Framing = existsSync(eventStream) ? 'aws-event-stream' : 'sse'
      return { entry, framing, file: framing === 'sse' ? join(directory, entry.name, 'upstream.sse') : eventStream }
    })
    .map(({ entry, framing, file }) => ({
      scenario: entry.name,
      framing,
      upstream: new Uint8Array(readFileSync(file)),
      expected: JSON.parse(readFileSync(join(directory, entry.name, 'expected-events.json'), 'utf8')) as StreamEvent[],
    }))
}

/** Feeds the chunks through a fresh framer and parser and returns every event, end() included. */
export function replayChunks(
  chunks: readonly Uint8Array[],
  parser: StreamParser,
  framing: Framing = 'sse',
): StreamEvent[] {
  const framer = createFramer(framing)
  const events: StreamEvent[] = []
  for (const chunk of chunks) for (const frame of framer.push(chunk)) events.push(...parser.push(frame))
  for (const frame of framer.end()) events.push(...parser.push(frame))
  events.push(...parser.end())
  return events
}

/** Asserts the expected events for the whole body and for every two-chunk split of it. */
export function assertEverySplit(transcript: Transcript, createParser: () => StreamParser): void {
  const bytes = transcript.upstream
  const { framing } = transcript
  const whole = replayChunks([bytes], createParser(), framing)
  assert.deepEqual(whole, transcript.expected, `${transcript.scenario}: whole body`)
  for (let offset = 1; offset < bytes.length; offset++) {
    const events = replayChunks([bytes.subarray(0, offset), bytes.subarray(offset)], createParser(), framing)
    assert.deepEqual(events, transcript.expected, `${transcript.scenario}: split at byte ${offset}`)
  }
}
