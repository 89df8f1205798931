import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { ErrorKind } from '../../domain/errors.ts'
import { classifyChatError } from './errors.ts'
import { mapChatFinishReason } from './finish-reason.ts'

const body = (type: string, code: string | null, message = 'm'): string =>
  JSON.stringify({ error: { message, type, param: null, code } })

test('classifies statuses and OpenAI error codes', () => {
  const cases: [number, string, ErrorKind][] = [
    [400, body('invalid_request_error', null), 'invalid_request'],
    [400, body('invalid_request_error', 'context_length_exceeded'), 'invalid_request'],
    [401, body('invalid_request_error', 'invalid_api_key'), 'upstream_error'],
    [403, '', 'upstream_error'],
    [404, body('invalid_request_error', 'model_not_found'), 'upstream_error'],
    [408, '', 'upstream_timeout'],
    [429, body('requests', 'rate_limit_exceeded'), 'rate_limited'],
    [429, body('insufficient_quota', 'insufficient_quota'), 'upstream_error'],
    [500, body('server_error', null), 'upstream_error'],
    [503, '<html>Service Unavailable</html>', 'upstream_error'],
    [504, '', 'upstream_timeout'],
    [529, '', 'upstream_overloaded'],
  ]
  for (const [status, text, kind] of cases)
    assert.equal(classifyChatError(status, text, {}).kind, kind, `${status} ${text}`)
})

test('429 carries retry-after and the upstream message', () => {
  assert.deepEqual(
    classifyChatError(429, body('requests', 'rate_limit_exceeded', 'Slow down'), { 'retry-after': '20' }),
    {
      kind: 'rate_limited',
      message: 'OpenAI-compatible upstream: Slow down',
      retryAfterSeconds: 20,
    },
  )
})

test('maps finish reasons', () => {
  assert.equal(mapChatFinishReason('stop'), 'stop')
  assert.equal(mapChatFinishReason('length'), 'length')
  assert.equal(mapChatFinishReason('tool_calls'), 'tool_calls')
  assert.equal(mapChatFinishReason('function_call'), 'tool_calls')
  assert.equal(mapChatFinishReason('content_filter'), 'content_filter')
  assert.equal(mapChatFinishReason('eos'), 'other')
  assert.equal(mapChatFinishReason('toString'), 'other')
  assert.equal(mapChatFinishReason(null), 'other')
})
