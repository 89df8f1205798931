import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { assertReadsAsParsed, inAnyKeyOrder, recordedFrames } from '../../../test/support/frame-readers.ts'
import { readPlainTextDelta } from './plain-text-frame.ts'

/** What the stream parser reads from an event when it is a text delta; undefined otherwise. */
function parsedTextDelta(data: string): { key: string; text: string; sequence: unknown } | undefined {
  const value = JSON.parse(data) as {
    type?: unknown
    sequence_number?: unknown
    output_index?: unknown
    content_index?: unknown
    delta?: unknown
  }
  if (value.type !== 'response.output_text.delta' || typeof value.delta !== 'string') return undefined
  return {
    key: `${String(value.output_index)}:${String(value.content_index)}`,
    text: value.delta,
    sequence: value.sequence_number,
  }
}

test('reads every text delta of a recorded Responses stream, and no other event', () => {
  const frames = recordedFrames(new URL('./__transcripts__/plain-text/upstream.sse', import.meta.url))
  const read = frames.map(readPlainTextDelta)
  assert.deepEqual(read, frames.map(parsedTextDelta))
  assert.ok(read.some((delta) => delta !== undefined))
})

const openAi = {
  type: 'response.output_text.delta',
  sequence_number: 4,
  item_id: 'msg_68a1f0c3aa1c8190b0b1',
  output_index: 1,
  content_index: 0,
  delta: 'Olá',
  logprobs: [],
}

test('reads an event with or without obfuscation', () => {
  const read = { key: '1:0', text: 'Olá', sequence: 4 }
  assert.deepEqual(readPlainTextDelta(JSON.stringify(openAi)), read)
  assert.deepEqual(readPlainTextDelta(JSON.stringify({ ...openAi, obfuscation: 'k3J' })), read)
})

test('leaves an event in another layout, or a text with escapes, to the parser', () => {
  const frames = [
    JSON.stringify({ ...openAi, delta: 'a\nb' }),
    JSON.stringify({ ...openAi, logprobs: [{ token: 'x', logprob: -1 }] }),
    JSON.stringify({ ...openAi, type: 'response.refusal.delta' }),
    JSON.stringify({ ...openAi, type: 'response.output_text.delta', extra: 1 }),
    JSON.stringify(openAi, null, 1),
    JSON.stringify(openAi).replace('"sequence_number":4,', ''),
    `${JSON.stringify(openAi).slice(0, -1)},"type":"error"}`,
  ]
  for (const frame of frames) assert.equal(readPlainTextDelta(frame), undefined, frame)
})

const text = fc.oneof(fc.string(), fc.constantFrom('', 'say "hi"', 'a\\b', 'new\nline', 'ça ☕'))
const event = inAnyKeyOrder(
  fc.record(
    {
      type: fc.constantFrom('response.output_text.delta', 'response.reasoning_text.delta'),
      sequence_number: fc.nat(),
      item_id: fc.oneof(fc.stringMatching(/^msg_\w*$/), fc.string()),
      output_index: fc.nat(3),
      content_index: fc.nat(3),
      delta: text,
      logprobs: fc.constantFrom([], [{ token: 'a', logprob: -0.5 }]),
      obfuscation: fc.string(),
    },
    { requiredKeys: ['type', 'delta'] },
  ),
)

test('whatever it reads is what JSON.parse reads, in any event and key order', () => {
  assertReadsAsParsed(
    event.map((value) => JSON.stringify(value)),
    readPlainTextDelta,
    parsedTextDelta,
  )
})

test('reads every text delta in OpenAI layout whose strings need no escape, and only those', () => {
  const plain = (value: string): boolean => JSON.stringify(value) === `"${value}"`
  fc.assert(
    fc.property(text, fc.string(), fc.nat(), fc.nat(9), fc.nat(9), (delta, itemId, sequence, output, content) => {
      const data = JSON.stringify({
        ...openAi,
        sequence_number: sequence,
        item_id: itemId,
        output_index: output,
        content_index: content,
        delta,
      })
      const read = readPlainTextDelta(data)
      if (plain(delta) && plain(itemId)) assert.deepEqual(read, parsedTextDelta(data))
      else assert.equal(read, undefined)
    }),
  )
})
