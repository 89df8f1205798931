import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { ErrorKind } from '../../domain/errors.ts'
import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import { classifyGeminiError } from './errors.ts'
import { mapGeminiFinishReason } from './finish-reason.ts'

const body = (code: number, status: string, details: unknown[] = []): string =>
  JSON.stringify({ error: { code, message: 'm', status, details } })

test('classifies google.rpc statuses', () => {
  const cases: [number, string, ErrorKind][] = [
    [400, body(400, 'INVALID_ARGUMENT'), 'invalid_request'],
    [400, body(400, 'FAILED_PRECONDITION'), 'upstream_error'],
    [403, body(403, 'PERMISSION_DENIED'), 'upstream_error'],
    [404, body(404, 'NOT_FOUND'), 'upstream_error'],
    [429, body(429, 'RESOURCE_EXHAUSTED'), 'rate_limited'],
    [500, body(500, 'INTERNAL'), 'upstream_error'],
    [503, body(503, 'UNAVAILABLE'), 'upstream_overloaded'],
    [504, body(504, 'DEADLINE_EXCEEDED'), 'upstream_timeout'],
    [502, 'bad gateway', 'upstream_error'],
  ]
  for (const [status, text, kind] of cases) assert.equal(classifyGeminiError(status, text, {}).kind, kind, `${status}`)
})

test('reads the retry delay from RetryInfo when no header says', () => {
  const text = body(429, 'RESOURCE_EXHAUSTED', [
    { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
    { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '13.2s' },
  ])
  assert.equal(classifyGeminiError(429, text, {}).retryAfterSeconds, 14)
  assert.equal(classifyGeminiError(429, text, { 'retry-after': '3' }).retryAfterSeconds, 3)
})

test('maps finish reasons', () => {
  const cases: [string | undefined, boolean, FinishReason][] = [
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    ['MAX_TOKENS', false, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', true, 'error'],
    ['OTHER', false, 'other'],
    [undefined, false, 'other'],
  ]
  for (const [reason, hasTools, expected] of cases)
    assert.equal(mapGeminiFinishReason(reason, hasTools), expected, String(reason))
})
