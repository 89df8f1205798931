import { test } from 'node:test'
import assert from 'node:assert/strict'
import { lookupKind, parseRetryAfter, upstreamFailure } from './upstream-failure.ts'

test('retry-after is read as seconds, HTTP date or retry-after-ms', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')
  assert.equal(parseRetryAfter({ 'retry-after': '7' }, now), 7)
  assert.equal(parseRetryAfter({ 'retry-after': '1.2' }, now), 2)
  assert.equal(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now), 30)
  assert.equal(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' }, now), 2)
  assert.equal(parseRetryAfter({ 'retry-after': 'soon' }, now), undefined)
  assert.equal(parseRetryAfter({}, now), undefined)
})

test('table lookups never reach Object.prototype', () => {
  assert.equal(lookupKind({ a: 'rate_limited' }, 'constructor'), undefined)
  assert.equal(lookupKind({ a: 'rate_limited' }, 'a'), 'rate_limited')
  assert.equal(lookupKind({ a: 'rate_limited' }, 42), undefined)
})

test('credential failures hide the upstream message; unknown statuses are upstream errors', () => {
  const hidden = upstreamFailure({
    provider: 'OpenAI',
    status: 401,
    typeKind: undefined,
    upstreamMessage: 'Incorrect API key provided: sk-abc',
    headers: {},
  })
  assert.deepEqual(hidden, { kind: 'upstream_error', message: "OpenAI rejected the gateway's credentials (HTTP 401)" })
  assert.equal(
    upstreamFailure({ provider: 'X', status: 418, typeKind: undefined, upstreamMessage: undefined, headers: {} }).kind,
    'upstream_error',
  )
  assert.equal(
    upstreamFailure({ provider: 'X', status: 400, typeKind: 'upstream_overloaded', upstreamMessage: 'm', headers: {} })
      .kind,
    'upstream_overloaded',
  )
})
