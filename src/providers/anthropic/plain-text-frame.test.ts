import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { assertReadsAsParsed, inAnyKeyOrder, recordedFrames } from '../../../test/support/frame-readers.ts'
import { readPlainTextDelta } from './plain-text-frame.ts'

/** What the stream parser reads from a frame when it is a text delta; undefined otherwise. */
function parsedTextDelta(data: string): { index: number; text: string } | undefined {
  const value = JSON.parse(data) as { type?: unknown; index?: unknown; delta?: { type?: unknown; text?: unknown } }
  if (value.type !== 'content_block_delta' || typeof value.index !== 'number' || value.delta?.type !== 'text_delta' || typeof value.delta.text !== 'string') return undefined
  return { index: value.index, text: value.delta.text }
}

test('reads every text delta of a recorded Anthropic stream, and no other frame', () => {
  const frames = recordedFrames(new URL('./__transcripts__/cached-usage/upstream.sse', import.meta.url))
  const read = frames.map(readPlainTextDelta)
  assert.deepEqual(read, frames.map(parsedTextDelta))
  assert.ok(read.some((delta) => delta !== undefined))
})

test('leaves a frame in another layout, or a text with escapes, to the parser', () => {
  const frames = [
    '{"index":0,"type":"content_block_delta","delta":{"type":"text_delta","text":"Hi"}}',
    '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\nb"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Hi"}}',
    '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"Hi"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"},"type":"error"}',
  ]
  for (const frame of frames) assert.equal(readPlainTextDelta(frame), undefined, frame)
})

const text = fc.oneof(fc.string(), fc.constantFrom('', 'say "hi"', 'a\\b', 'new\nline', 'ça ☕'))
const frame = inAnyKeyOrder(
  fc.record({
    type: fc.constantFrom('content_block_delta', 'content_block_start'),
    index: fc.nat(3),
    delta: fc.oneof(text.map((value) => ({ type: 'text_delta', text: value })), text.map((value) => ({ thinking: value, type: 'thinking_delta' }))),
  }),
)

test('whatever it reads is what JSON.parse reads, in any frame and key order', () => {
  assertReadsAsParsed(frame.map((value) => JSON.stringify(value)), readPlainTextDelta, parsedTextDelta)
})

test('reads every text delta as Anthropic writes it whose text needs no escape', () => {
  fc.assert(
    fc.property(fc.string().filter((value) => JSON.stringify(value) === `"${value}"`), fc.nat(1000), (value, index) => {
      const data = JSON.stringify({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: value } })
      assert.deepEqual(readPlainTextDelta(data), { index, text: value })
    }),
  )
})
