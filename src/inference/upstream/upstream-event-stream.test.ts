import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import { adapterFor } from '../../providers/registry.ts'
import { openaiChatDialect } from '../../../test/fake-upstreams/openai-chat-dialect.ts'
import { planCompletion } from '../../../test/fake-upstreams/scripted-reply.ts'
import type { UpstreamAnswer } from './upstream-transport.ts'
import { UpstreamEventStream } from './upstream-event-stream.ts'

const frames = openaiChatDialect.completionFrames(
  planCompletion(
    { type: 'completion', text: 'héllo – wörld ✓', chunks: 5, usage: { input_tokens: 3, output_tokens: 5 } },
    1,
    'm1',
  ),
)
const bytes = Buffer.from(frames.join(''))
const chatAdapter = adapterFor('openai-chat', 'm1', { slug: 'p', apiKey: null, baseUrl: 'http://127.0.0.1' })

function answerOf(body: Readable): UpstreamAnswer {
  return { status: 200, headers: {}, body: body as UpstreamAnswer['body'] }
}

function streamOf(chunks: readonly Buffer[]): UpstreamEventStream {
  return new UpstreamEventStream(chatAdapter, answerOf(Readable.from(chunks, { objectMode: false })), {})
}

async function allBatches(stream: UpstreamEventStream): Promise<StreamEvent[][]> {
  const batches: StreamEvent[][] = []
  for await (const batch of stream.batches()) batches.push(batch)
  return batches
}

test('the events of one upstream read come as one batch, and the whole answer ends with message-end', async () => {
  const batches = await allBatches(streamOf([bytes]))
  assert.equal(batches.length, 1)
  const events = batches[0]!
  assert.equal(events[0]?.type, 'message-start')
  assert.equal(
    events
      .filter((event) => event.type === 'text-delta')
      .map((event) => (event as { delta: string }).delta)
      .join(''),
    'héllo – wörld ✓',
  )
  assert.equal(events.at(-1)?.type, 'message-end')
})

test('split at every byte, the batches hold the same events, and iterating one by one gives them too', async () => {
  const whole = (await allBatches(streamOf([bytes]))).flat()
  for (let cut = 1; cut < bytes.length; cut += 1) {
    const batches = await allBatches(streamOf([bytes.subarray(0, cut), bytes.subarray(cut)]))
    assert.ok(
      batches.every((batch) => batch.length > 0),
      'no empty batch',
    )
    assert.deepEqual(batches.flat(), whole, `split at ${cut}`)
  }
  const single: StreamEvent[] = []
  for await (const event of streamOf([bytes.subarray(0, 100), bytes.subarray(100)])) single.push(event)
  assert.deepEqual(single, whole)
})

test('a body that breaks off ends with a stream-error after the events read so far', async () => {
  const half = bytes.subarray(0, Math.floor(bytes.length / 2))
  const body = new Readable({ read() {} })
  body.push(half)
  setImmediate(() => body.destroy(new Error('socket hang up')))
  const events = (await allBatches(new UpstreamEventStream(chatAdapter, answerOf(body), {}))).flat()
  assert.equal(events[0]?.type, 'message-start')
  assert.deepEqual(events.at(-1), {
    type: 'stream-error',
    kind: 'upstream_error',
    message: "The provider's stream broke off: socket hang up",
  })
})
