import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { ErrorKind } from '../../domain/errors.ts'
import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import { classifyResponsesError } from './errors.ts'
import { mapResponsesOutcome } from './finish-reason.ts'
import type { ResponsesResponse } from './wire.ts'

const body = (type: string, code: string | null): string =>
  JSON.stringify({ error: { message: 'm', type, param: null, code } })

test('classifies HTTP errors', () => {
  const cases: [number, string, ErrorKind][] = [
    [400, body('invalid_request_error', 'invalid_prompt'), 'invalid_request'],
    [401, body('invalid_request_error', 'invalid_api_key'), 'upstream_error'],
    [429, body('tokens', 'rate_limit_exceeded'), 'rate_limited'],
    [429, body('insufficient_quota', 'insufficient_quota'), 'upstream_error'],
    [500, body('server_error', null), 'upstream_error'],
    [504, '', 'upstream_timeout'],
  ]
  for (const [status, text, kind] of cases)
    assert.equal(classifyResponsesError(status, text, {}).kind, kind, `${status}`)
  assert.equal(
    classifyResponsesError(429, body('tokens', 'rate_limit_exceeded'), { 'retry-after-ms': '250' }).retryAfterSeconds,
    1,
  )
})

test('maps status, incomplete reason and tool calls to a finish reason', () => {
  const cases: [Pick<ResponsesResponse, 'status' | 'incomplete_details'>, boolean, FinishReason, string][] = [
    [{ status: 'completed' }, false, 'stop', 'completed'],
    [{ status: 'completed' }, true, 'tool_calls', 'completed'],
    [
      { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
      false,
      'length',
      'max_output_tokens',
    ],
    [
      { status: 'incomplete', incomplete_details: { reason: 'content_filter' } },
      true,
      'content_filter',
      'content_filter',
    ],
    [{ status: 'failed' }, false, 'error', 'failed'],
    [{ status: 'incomplete', incomplete_details: { reason: 'brand_new' } }, false, 'other', 'brand_new'],
  ]
  for (const [response, hasTools, reason, native] of cases) {
    assert.deepEqual(mapResponsesOutcome(response, hasTools), { finish_reason: reason, native_finish_reason: native })
  }
})
