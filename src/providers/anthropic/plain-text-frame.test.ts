import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { assertReadsAsParsed, inAnyKeyOrder, recordedFrames } from '../../../test/support/frame-readers.ts'
import { readPlainDelta } from './plain-text-frame.ts'

/** What the stream parser reads from a frame when it is a text or thinking delta; undefined otherwise. */
function parsedDelta(data: string): ReturnType<typeof readPlainDelta> {
  const value = JSON.parse(data) as {
    type?: unknown
    index?: unknown
    delta?: { type?: unknown; text?: unknown; thinking?: unknown }
  }
  if (value.type !== 'content_block_delta' || typeof value.index !== 'number') return undefined
  if (value.delta?.type === 'text_delta' && typeof value.delta.text === 'string')
    return { index: value.index, delta: { type: 'text_delta', text: value.delta.text } }
  if (value.delta?.type === 'thinking_delta' && typeof value.delta.thinking === 'string')
    return { index: value.index, delta: { type: 'thinking_delta', thinking: value.delta.thinking } }
  return undefined
}

for (const scenario of ['cached-usage', 'thinking']) {
  test(`reads every text and thinking delta of a recorded Anthropic stream (${scenario}), and no other frame`, () => {
    const frames = recordedFrames(new URL(`./__transcripts__/${scenario}/upstream.sse`, import.meta.url))
    const read = frames.map(readPlainDelta)
    assert.deepEqual(read, frames.map(parsedDelta))
    assert.ok(read.some((delta) => delta !== undefined))
  })
}

test('leaves a frame in another layout, or a text with escapes, to the parser', () => {
  const frames = [
    '{"index":0,"type":"content_block_delta","delta":{"type":"text_delta","text":"Hi"}}',
    '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\nb"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","text":"Hi"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"abc"}}',
    '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"Hi"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"},"type":"error"}',
  ]
  for (const frame of frames) assert.equal(readPlainDelta(frame), undefined, frame)
})

const text = fc.oneof(fc.string(), fc.constantFrom('', 'say "hi"', 'a\\b', 'new\nline', 'ça ☕'))
const frame = inAnyKeyOrder(
  fc.record({
    type: fc.constantFrom('content_block_delta', 'content_block_start'),
    index: fc.nat(3),
    delta: fc.oneof(
      text.map((value) => ({ type: 'text_delta', text: value })),
      text.map((value) => ({ type: 'thinking_delta', thinking: value })),
      text.map((value) => ({ type: 'thinking_delta', text: value })),
    ),
  }),
)

test('whatever it reads is what JSON.parse reads, in any frame and key order', () => {
  assertReadsAsParsed(
    frame.map((value) => JSON.stringify(value)),
    readPlainDelta,
    parsedDelta,
  )
})

test('reads every text and thinking delta as Anthropic writes it whose text needs no escape', () => {
  fc.assert(
    fc.property(
      fc.string().filter((value) => JSON.stringify(value) === `"${value}"`),
      fc.nat(1000),
      fc.boolean(),
      (value, index, thinking) => {
        const delta = thinking
          ? { type: 'thinking_delta' as const, thinking: value }
          : { type: 'text_delta' as const, text: value }
        assert.deepEqual(readPlainDelta(JSON.stringify({ type: 'content_block_delta', index, delta })), {
          index,
          delta,
        })
      },
    ),
  )
})
