import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { ErrorKind } from '../../domain/errors.ts'
import { classifyAnthropicError } from './errors.ts'
import { mapAnthropicStopReason } from './finish-reason.ts'

const body = (type: string, message = 'm'): string => JSON.stringify({ type: 'error', error: { type, message } })

test('classifies Anthropic error types and statuses', () => {
  const cases: [number, string, ErrorKind][] = [
    [400, body('invalid_request_error'), 'invalid_request'],
    [401, body('authentication_error'), 'upstream_error'],
    [403, body('permission_error'), 'upstream_error'],
    [404, body('not_found_error'), 'upstream_error'],
    [413, body('request_too_large'), 'payload_too_large'],
    [429, body('rate_limit_error'), 'rate_limited'],
    [500, body('api_error'), 'upstream_error'],
    [504, body('timeout_error'), 'upstream_timeout'],
    [529, body('overloaded_error'), 'upstream_overloaded'],
    [529, 'not json', 'upstream_overloaded'],
    [502, '<html>Bad gateway</html>', 'upstream_error'],
  ]
  for (const [status, text, kind] of cases)
    assert.equal(classifyAnthropicError(status, text, {}).kind, kind, `${status} ${text}`)
})

test('rate limits carry retry-after', () => {
  assert.deepEqual(
    classifyAnthropicError(
      429,
      body('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'),
      { 'retry-after': '13' },
    ),
    {
      kind: 'rate_limited',
      message: 'Anthropic: Number of request tokens has exceeded your per-minute rate limit',
      retryAfterSeconds: 13,
    },
  )
})

test('maps stop reasons', () => {
  const cases: [string | null, string][] = [
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'other'],
    ['something_new', 'other'],
    [null, 'other'],
  ]
  for (const [reason, expected] of cases) assert.equal(mapAnthropicStopReason(reason), expected, String(reason))
})
