import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { NativeFrame, StreamEvent } from '../../domain/inference/stream-event.ts'
import { makeUsage } from '../../domain/inference/usage.ts'
import { transcriptContext } from '../../../test/support/dialect-transcripts.ts'
import { ResponsesPassThroughEncoder } from './pass-through-encoder.ts'

const context = { ...transcriptContext, passThrough: true }
const item = { id: 'msg_up', type: 'message', status: 'completed', role: 'assistant', content: [] as unknown[] }
const part = { type: 'output_text', text: 'Hi', annotations: [], logprobs: [] }
const upstreamResponse = {
  id: 'resp_up',
  object: 'response',
  model: 'up-model',
  output: [{ ...item, content: [part] }],
}

/** An upstream Responses frame as OpenAI writes it (type, then sequence_number, then the rest). */
function native(type: string, sequence: number, fields: Record<string, unknown>, parsed = false): StreamEvent {
  const value = { type, sequence_number: sequence, ...fields }
  const data = JSON.stringify(value)
  return parsed ? { type: 'native-frame', event: type, data, value } : { type: 'native-frame', event: type, data }
}

/** A text delta as the parser gives it when it read the frame's layout: with the number it was written with. */
function delta(sequence: number, text: string): StreamEvent {
  const fields = { item_id: 'msg_up', output_index: 0, content_index: 0, delta: text }
  return { ...(native('response.output_text.delta', sequence, fields) as NativeFrame), sequence }
}

const upstream: StreamEvent[] = [
  native('response.created', 0, { response: { ...upstreamResponse, output: [] } }, true),
  native('response.in_progress', 1, { response: { ...upstreamResponse, output: [] } }),
  { type: 'text-start', index: 0 },
  native('response.output_item.added', 2, { output_index: 0, item: { ...item, status: 'in_progress' } }, true),
  native('response.content_part.added', 3, { item_id: 'msg_up', output_index: 0, content_index: 0, part }, true),
  { type: 'text-delta', index: 0, delta: 'Hi' },
  delta(4, 'Hi'),
  native('response.output_text.done', 5, { item_id: 'msg_up', output_index: 0, content_index: 0, text: 'Hi' }),
  native('response.output_item.done', 6, { output_index: 0, item: upstreamResponse.output[0] }),
  { type: 'usage-report', usage: makeUsage({ input_tokens: 3, output_tokens: 1 }) },
  { type: 'message-end', finish_reason: 'stop' },
  native('response.completed', 7, { response: upstreamResponse }, true),
]

function dataOf(frames: string): Record<string, unknown>[] {
  return frames
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>)
}

const passedData = (events: readonly StreamEvent[]): string[] =>
  events.flatMap((event) =>
    event.type === 'native-frame' && !/created|in_progress|completed/.test(event.event) ? [event.data] : [],
  )

test('the upstream frames pass as written between the gateway’s opening and terminal events', () => {
  const encoder = new ResponsesPassThroughEncoder(context)
  const opening = encoder.start()
  const middle = upstream.map((event) => encoder.push(event)).join('')
  const closing = encoder.finish({ usage: makeUsage({ input_tokens: 3, output_tokens: 1 }), costUsd: 0.5 })
  assert.deepEqual(
    middle,
    passedData(upstream)
      .map((data) => `event: ${(JSON.parse(data) as { type: string }).type}\ndata: ${data}\n\n`)
      .join(''),
  )
  const [created, inProgress] = dataOf(opening)
  assert.deepEqual([created?.type, created?.sequence_number, inProgress?.sequence_number], ['response.created', 0, 1])
  assert.equal((created?.response as { id: string }).id, transcriptContext.generationId)
  const [completed] = dataOf(closing)
  const response = completed?.response as Record<string, unknown>
  assert.deepEqual(
    [completed?.type, completed?.sequence_number, response.id, response.model, response.output_text],
    ['response.completed', 7, transcriptContext.generationId, transcriptContext.model, 'Hi'],
  )
  assert.deepEqual(response.output, upstreamResponse.output, "the upstream's items, with its ids")
  assert.deepEqual((response.usage as { cost: number; input_tokens: number }).cost, 0.5)
  assert.ok(closing.endsWith('data: [DONE]\n\n'))
})

test('after the gateway’s debug frame every passed frame is renumbered, its other bytes kept', () => {
  const encoder = new ResponsesPassThroughEncoder(context)
  const opening = encoder.debug({ model: 'up-model' }) + encoder.start()
  const middle = upstream.map((event) => encoder.push(event)).join('')
  const closing = encoder.finish({ usage: makeUsage({ input_tokens: 3, output_tokens: 1 }), costUsd: 0.5 })
  const numbers = [...opening, ...middle, ...closing].join('').matchAll(/"sequence_number":(\d+)/g)
  const all = [...numbers].map((match) => Number(match[1]))
  assert.deepEqual(
    all,
    all.map((_, index) => index),
  )
  const renumbered = passedData(upstream).map((data) =>
    data.replace(/"sequence_number":(\d+)/, (_, n) => `"sequence_number":${Number(n) + 1}`),
  )
  assert.deepEqual(
    dataOf(middle).map((value) => JSON.stringify(value)),
    renumbered,
  )
})

test('a frame of another layout is parsed and written again with the next number, or dropped when it is not JSON', () => {
  const encoder = new ResponsesPassThroughEncoder(context)
  encoder.debug({})
  encoder.start()
  const other = '{"sequence_number":2,"type":"response.output_text.done","text":"Hi"}'
  const frames = encoder.push({ type: 'native-frame', event: 'response.output_text.done', data: other })
  assert.deepEqual(dataOf(frames), [{ sequence_number: 3, type: 'response.output_text.done', text: 'Hi' }])
  const broken = '{"sequence_number":3,"type":"response.output_text.done","text":"Hi'
  assert.equal(encoder.push({ type: 'native-frame', event: 'response.output_text.done', data: broken }), '')
  const split = '{"type":"response.output_text.done","sequence_number":5,\n"text":"Hi"}'
  assert.deepEqual(dataOf(encoder.push({ type: 'native-frame', event: 'response.output_text.done', data: split })), [
    { type: 'response.output_text.done', sequence_number: 4, text: 'Hi' },
  ])
})

test('a failure is the gateway’s error and response.failed, and nothing follows', () => {
  const encoder = new ResponsesPassThroughEncoder(context)
  encoder.start()
  encoder.push(upstream[3]!)
  const failed = encoder.push({ type: 'stream-error', kind: 'upstream_error', message: 'boom' })
  assert.deepEqual(
    dataOf(failed).map((value) => [value.type, value.sequence_number]),
    [
      ['error', 3],
      ['response.failed', 4],
    ],
  )
  assert.equal(encoder.push(upstream[6]!), '')
})
