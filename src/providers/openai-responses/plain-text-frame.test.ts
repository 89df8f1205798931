import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  assertReadsAsParsed,
  assertStreamReaderAgrees,
  inAnyKeyOrder,
  rawText,
  recordedFrames,
} from '../../../test/support/frame-readers.ts'
import { PlainTextDeltaReader, readPlainTextDelta } from './plain-text-frame.ts'

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

/** An event of one stream: mostly OpenAI's text deltas for one or two parts, with raw bytes spliced in where the reader looks. */
const streamEvent = fc.oneof(
  fc
    .record({
      sequence: fc.oneof(fc.nat(), fc.constantFrom(0, 10 ** 14, 10 ** 15 - 1, 10 ** 15, 10 ** 16)),
      part: fc.nat(1),
      delta: fc.oneof(text, fc.string({ minLength: 20, maxLength: 40 })),
      obfuscation: fc.option(fc.oneof(fc.string({ maxLength: 6 }), rawText), { nil: undefined }),
    })
    .map(({ sequence, part, delta, obfuscation }) =>
      JSON.stringify({
        ...openAi,
        sequence_number: sequence,
        output_index: part,
        item_id: `msg_${part}`,
        delta,
        ...(obfuscation === undefined ? {} : { obfuscation }),
      }),
    ),
  fc
    .tuple(rawText, fc.constantFrom('sequence', 'delta', 'obfuscation'))
    .map(([raw, place]) =>
      JSON.stringify({ ...openAi, sequence_number: 7, delta: 'x', obfuscation: 'o' }).replace(
        place === 'sequence' ? '7' : place === 'delta' ? '"x"' : '"o"',
        () => (place === 'sequence' ? raw : `"${raw}"`),
      ),
    ),
  event.map((value) => JSON.stringify(value)),
)

test('a stream reader answers every event as readPlainTextDelta does, whatever came before it', () => {
  assertStreamReaderAgrees(
    fc.array(streamEvent, { maxLength: 12 }),
    () => new PlainTextDeltaReader(),
    readPlainTextDelta,
  )
})

test('a stream reader reads the events of a recorded stream as readPlainTextDelta does', () => {
  const frames = recordedFrames(new URL('./__transcripts__/plain-text/upstream.sse', import.meta.url))
  const reader = new PlainTextDeltaReader()
  const read = frames.map((data) => reader.read(data))
  assert.deepEqual(read, frames.map(readPlainTextDelta))
  assert.ok(
    read.filter((delta) => delta !== undefined).length > 1,
    'more than one delta, so the remembered shape is used',
  )
})
