import { test } from 'node:test'
import assert from 'node:assert/strict'
import { foldStreamEvents } from './fold-stream-events.ts'
import { makeUsage } from './usage.ts'
import { GatewayError } from '../errors.ts'

test('folds text, reasoning and tool call blocks into ordered output items', () => {
  const usage = makeUsage({ input_tokens: 10, output_tokens: 5, reasoning_tokens: 2 })
  const result = foldStreamEvents([
    { type: 'message-start', id: 'msg_1', model: 'm' },
    { type: 'reasoning-start', index: 0, origin: 'anthropic' },
    { type: 'reasoning-delta', index: 0, delta: 'Think' },
    { type: 'reasoning-delta', index: 0, delta: 'ing' },
    { type: 'reasoning-end', index: 0, signature: 'sig' },
    { type: 'text-start', index: 1 },
    { type: 'text-delta', index: 1, delta: 'Hi' },
    { type: 'text-end', index: 1 },
    { type: 'tool-call-start', index: 2, id: 'call_1', name: 'f' },
    { type: 'tool-call-delta', index: 2, delta: '{"a":' },
    { type: 'tool-call-delta', index: 2, delta: '1}' },
    { type: 'tool-call-end', index: 2 },
    { type: 'usage-report', usage },
    { type: 'message-end', finish_reason: 'tool_calls', native_finish_reason: 'tool_use' },
  ])
  assert.deepEqual(result, {
    id: 'msg_1',
    model: 'm',
    output: [
      { type: 'reasoning', text: 'Thinking', signature: 'sig', origin: 'anthropic' },
      { type: 'text', text: 'Hi' },
      { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{"a":1}' },
    ],
    finish_reason: 'tool_calls',
    native_finish_reason: 'tool_use',
    usage,
  })
})

test('a stream-error or a missing message-end becomes a GatewayError', () => {
  assert.throws(
    () =>
      foldStreamEvents([
        { type: 'message-start', id: 'x', model: 'm' },
        { type: 'stream-error', kind: 'upstream_overloaded', message: 'Overloaded' },
      ]),
    (error: unknown) => error instanceof GatewayError && error.kind === 'upstream_overloaded',
  )
  assert.throws(() => foldStreamEvents([{ type: 'message-start', id: 'x', model: 'm' }]), GatewayError)
})
