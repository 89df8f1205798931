import { test } from 'node:test'
import assert from 'node:assert/strict'
import { backoffMs, retrySameEndpoint } from './retry-same-endpoint.ts'
import { AttemptError } from './attempt-error.ts'
import { Cancellation } from '../../domain/cancellation.ts'

const retry = { maxAttempts: 3, baseMs: 100, maxMs: 300 }

test('the backoff doubles from base_ms up to max_ms, with full jitter', () => {
  assert.equal(
    backoffMs(retry, 1, undefined, () => 0.999),
    99,
  )
  assert.equal(
    backoffMs(retry, 2, undefined, () => 0.999),
    199,
  )
  assert.equal(
    backoffMs(retry, 3, undefined, () => 0.999),
    299,
    'capped at max_ms',
  )
  assert.equal(
    backoffMs(retry, 5, undefined, () => 0),
    0,
  )
})

test("the provider's Retry-After is honoured when it fits in max_ms, else the endpoint is left", () => {
  assert.equal(
    backoffMs({ ...retry, maxMs: 5000 }, 1, 2, () => 0.5),
    2000,
  )
  assert.equal(
    backoffMs(retry, 1, 2, () => 0.5),
    null,
  )
})

test('retryable failures are retried up to max_attempts; others at once go back to the caller', async () => {
  const failures = [new AttemptError('upstream_error', '500', 500), new AttemptError('upstream_error', '500', 500)]
  let calls = 0
  const answer = await retrySameEndpoint(
    retry,
    new Cancellation(),
    async () => {
      calls++
      const failure = failures.shift()
      if (failure !== undefined) throw failure
      return 'ok'
    },
    () => 0,
  )
  assert.equal(answer, 'ok')
  assert.equal(calls, 3)

  let clientErrors = 0
  await assert.rejects(
    retrySameEndpoint(retry, new Cancellation(), async () => {
      clientErrors++
      throw new AttemptError('invalid_request', 'bad', 400)
    }),
  )
  assert.equal(clientErrors, 1, 'a 400 is not retried')

  let always = 0
  await assert.rejects(
    retrySameEndpoint(
      retry,
      new Cancellation(),
      async () => {
        always++
        throw new AttemptError('upstream_error', '500', 500)
      },
      () => 0,
    ),
  )
  assert.equal(always, 3, 'the last failure goes back to the fallback loop')
})

test('a client that goes away during the wait ends the retries', async () => {
  const cancellation = new Cancellation()
  let calls = 0
  const pending = retrySameEndpoint(
    { maxAttempts: 5, baseMs: 60_000, maxMs: 60_000 },
    cancellation,
    async () => {
      calls++
      // The client leaves once the first wait (a minute) has begun.
      setImmediate(() => cancellation.abort())
      throw new AttemptError('upstream_error', '500', 500)
    },
    () => 1,
  )
  await assert.rejects(pending)
  assert.equal(calls, 1)
})
