import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { createSseFramer } from './sse-framing.ts'
import type { SseEvent } from './sse-framing.ts'

function frameAll(chunks: readonly (Uint8Array | string)[]): SseEvent[] {
  const framer = createSseFramer()
  return [...chunks.flatMap((chunk) => framer.push(chunk)), ...framer.end()]
}

const stream = 'event: a\ndata: {"x":"héllo – ✓"}\n\n: comment\ndata: line1\ndata: line2\n\r\ndata: [DONE]\r\n\r\n'

test('frames named events, multi-line data, comments and CRLF', () => {
  assert.deepEqual(frameAll([stream]), [
    { event: 'a', data: '{"x":"héllo – ✓"}' },
    { data: 'line1\nline2' },
    { data: '[DONE]' },
  ])
})

test('any split of the bytes, even inside a UTF-8 character, gives the same events', () => {
  const bytes = new TextEncoder().encode(stream)
  const whole = frameAll([bytes])
  fc.assert(
    fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 8 }), (cuts) => {
      const points = [0, ...cuts.sort((a, b) => a - b), bytes.length]
      const chunks = points.slice(1).map((end, i) => bytes.subarray(points[i], end))
      assert.deepEqual(frameAll(chunks), whole)
    }),
  )
})

test('end() flushes a last event whose blank line never came', () => {
  const framer = createSseFramer()
  assert.deepEqual(framer.push('data: one\n\ndata: two\n'), [{ data: 'one' }])
  assert.deepEqual(framer.end(), [{ data: 'two' }])
})

test('an event larger than the limit fails instead of buffering without bound', () => {
  const framer = createSseFramer({ maxEventSize: 64 })
  assert.throws(() => framer.push(`data: ${'x'.repeat(200)}`), /too large/)
})

test('a byte-order mark before the first event is dropped, wherever the bytes are split', () => {
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('data: first\n\n')])
  for (let cut = 1; cut < bytes.length; cut += 1) {
    assert.deepEqual(frameAll([bytes.subarray(0, cut), bytes.subarray(cut)]), [{ data: 'first' }], `split at ${cut}`)
  }
})

test('bytes that are not UTF-8 become replacement characters, including a sequence cut off at the end', () => {
  assert.deepEqual(
    frameAll([
      new Uint8Array([
        ...new TextEncoder().encode('data: a'),
        0xff,
        0x62,
        0x0a,
        0x0a,
        ...new TextEncoder().encode('data: z'),
        0xe2,
        0x82,
      ]),
    ]),
    [{ data: 'a\ufffdb' }, { data: 'z\ufffd' }],
  )
})
