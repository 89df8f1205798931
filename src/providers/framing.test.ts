import { test } from 'node:test'
import assert from 'node:assert/strict'
import { EventStreamCodec } from '@smithy/core/event-streams'
import { fromUtf8, toUtf8 } from '@smithy/util-utf8'
import { createFramer } from './framing.ts'
import type { Framing, UpstreamFrame } from './provider-adapter.ts'

function framesAtEverySplit(framing: Framing, bytes: Buffer): UpstreamFrame[] {
  const whole = createFramer(framing)
  const expected = [...whole.push(bytes), ...whole.end()]
  for (let cut = 1; cut < bytes.length; cut += 1) {
    const framer = createFramer(framing)
    const frames = [...framer.push(bytes.subarray(0, cut)), ...framer.push(bytes.subarray(cut)), ...framer.end()]
    assert.deepEqual(frames, expected, `${framing} split at ${cut}`)
  }
  return expected
}

test('ndjson: one frame per line, blank lines skipped, a last line without newline kept, at every split', () => {
  const body = Buffer.from('{"a":"x\\ny"}\n\n{"b":[1,{"c":"é"}]}\r\n{"d":"✓"}')
  assert.deepEqual(
    framesAtEverySplit('ndjson', body).map((frame) => JSON.parse(frame.data)),
    [{ a: 'x\ny' }, { b: [1, { c: 'é' }] }, { d: '✓' }],
  )
})

test('json-array: one frame per element; commas and brackets inside strings do not cut', () => {
  const body = Buffer.from('[{"t":"a,]b\\"}"},\n {"t":"[é]"}\n,{"n":[1,2]}]')
  assert.deepEqual(
    framesAtEverySplit('json-array', body).map((frame) => JSON.parse(frame.data)),
    [{ t: 'a,]b"}' }, { t: '[é]' }, { n: [1, 2] }],
  )
})

test('a JSON body cut inside a value fails at its end', () => {
  for (const framing of ['ndjson', 'json-array'] as const) {
    const framer = createFramer(framing)
    framer.push('[{"a":"unterminated')
    assert.throws(() => framer.end(), /ended inside a JSON value/)
  }
})

const codec = new EventStreamCodec(toUtf8, fromUtf8)
const message = (headers: Record<string, string>, payload: unknown): Uint8Array =>
  codec.encode({
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, { type: 'string' as const, value }]),
    ),
    body: Buffer.from(JSON.stringify(payload)),
  })

test('aws-event-stream: events and exceptions by their headers, at every split', () => {
  const body = Buffer.concat([
    message({ ':message-type': 'event', ':event-type': 'messageStart' }, { role: 'assistant' }),
    message({ ':message-type': 'event', ':event-type': 'contentBlockDelta' }, { delta: { text: 'héllo ✓' } }),
    message({ ':message-type': 'exception', ':exception-type': 'throttlingException' }, { message: 'slow down' }),
  ])
  assert.deepEqual(framesAtEverySplit('aws-event-stream', body), [
    { event: 'messageStart', data: '{"role":"assistant"}' },
    { event: 'contentBlockDelta', data: '{"delta":{"text":"héllo ✓"}}' },
    { event: 'throttlingException', data: '{"message":"slow down"}', exception: true },
  ])
})

test('aws-event-stream: a corrupted message fails its CRC check; a cut message fails at the end', () => {
  const bytes = Buffer.from(message({ ':message-type': 'event', ':event-type': 'messageStop' }, { stopReason: 'x' }))
  bytes[bytes.length - 6] = bytes[bytes.length - 6]! ^ 0x01
  assert.throws(() => createFramer('aws-event-stream').push(bytes), /checksum/i)
  const framer = createFramer('aws-event-stream')
  assert.deepEqual(framer.push(bytes.subarray(0, 20)), [])
  assert.throws(() => framer.end(), /ended inside an event-stream message/)
})
