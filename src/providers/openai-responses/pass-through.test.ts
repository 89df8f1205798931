// The parser of a stream passed through: every upstream frame comes out as a `native-frame` with its data
// as written, and beside them the events the tally reads, the same as when the stream is translated
// (the block ends, read from the `*.done` frames it leaves unparsed, are the only ones missing).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import { createFramer } from '../framing.ts'
import { loadTranscripts, replayChunks } from '../../../test/support/transcripts.ts'
import { ResponsesStreamParser } from './stream.ts'

const transcripts = loadTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))
const blockEnds = new Set<StreamEvent['type']>(['text-end', 'reasoning-end', 'tool-call-end'])

function frameData(bytes: Uint8Array): string[] {
  const framer = createFramer('sse')
  return [...framer.push(bytes), ...framer.end()].map((frame) => (frame as { data: string }).data)
}

function split(events: readonly StreamEvent[]): { natives: string[]; meaning: StreamEvent[] } {
  const natives: string[] = []
  const meaning: StreamEvent[] = []
  for (const event of events) {
    if (event.type === 'native-frame') {
      const value = JSON.parse(event.data) as { type: string; sequence_number: number }
      assert.equal(event.event, value.type, 'the frame is named by its type')
      if (event.sequence !== undefined) assert.equal(event.sequence, value.sequence_number)
      natives.push(event.data)
    } else meaning.push(event)
  }
  return { natives, meaning }
}

for (const transcript of transcripts) {
  test(`passed through, ${transcript.scenario}: every frame as written and the tally's events, at every split`, () => {
    const frames = frameData(transcript.upstream)
    const translated = transcript.expected.filter((event) => !blockEnds.has(event.type))
    const bytes = transcript.upstream
    for (let offset = 0; offset < bytes.length; offset++) {
      const chunks = offset === 0 ? [bytes] : [bytes.subarray(0, offset), bytes.subarray(offset)]
      const { natives, meaning } = split(replayChunks(chunks, new ResponsesStreamParser(true)))
      assert.deepEqual(natives, frames, `${transcript.scenario}: frames, split at ${offset}`)
      assert.deepEqual(meaning, translated, `${transcript.scenario}: events, split at ${offset}`)
    }
  })
}

test('passed through, a frame of another layout is parsed and given with its value', () => {
  const data = '{"sequence_number":3,"type":"response.output_text.done","text":"Hi","output_index":0}'
  const events = replayChunks([new TextEncoder().encode(`data: ${data}\n\n`)], new ResponsesStreamParser(true))
  assert.deepEqual(events.slice(0, 1), [
    { type: 'native-frame', event: 'response.output_text.done', data, value: JSON.parse(data) },
  ])
})

test('translated, no frame is given', () => {
  const transcript = transcripts.find((entry) => entry.scenario === 'plain-text')!
  const events = replayChunks([transcript.upstream], new ResponsesStreamParser())
  assert.equal(
    events.some((event) => event.type === 'native-frame'),
    false,
  )
})
