import { test } from 'node:test'
import assert from 'node:assert/strict'
import { AttemptError, attemptErrorFromTransport } from './attempt-error.ts'
import { classifyAttemptFailure } from './attempt-failure.ts'

test('each failure an attempt can have gets its own reason', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
  const headersTimeout = Object.assign(new Error('timeout'), { code: 'UND_ERR_HEADERS_TIMEOUT' })
  const cases: [AttemptError, string][] = [
    [attemptErrorFromTransport(refused, 'p'), 'unreachable'],
    [attemptErrorFromTransport(headersTimeout, 'p'), 'timeout'],
    [new AttemptError('rate_limited', 'x', 429), 'rate_limited'],
    [new AttemptError('rate_limited', 'every credential of the pool is cooling down', 429), 'rate_limited'],
    [new AttemptError('upstream_timeout', 'x', 504), 'timeout'],
    [new AttemptError('upstream_timeout', 'x', 408), 'timeout'],
    [new AttemptError('upstream_overloaded', 'x', 529), 'overloaded'],
    [new AttemptError('upstream_overloaded', 'overloaded_error', 503), 'overloaded'],
    [new AttemptError('upstream_error', 'x', 503), 'unavailable'],
    [new AttemptError('upstream_error', 'x', 500), 'upstream_5xx'],
    [new AttemptError('upstream_error', 'x', 502), 'upstream_5xx'],
    [new AttemptError('upstream_error', 'rejected the credentials', 401), 'credentials_rejected'],
    [new AttemptError('upstream_error', 'rejected the credentials', 403), 'credentials_rejected'],
    [new AttemptError('upstream_error', 'a body that is not JSON', 200), 'bad_response'],
    [new AttemptError('upstream_error', 'x', 404), 'other'],
  ]
  for (const [error, reason] of cases) assert.equal(classifyAttemptFailure(error), reason, error.message)
})
