import { test } from 'node:test'
import assert from 'node:assert/strict'
import { withDeadline } from './with-deadline.ts'
import { GatewayError } from '../../domain/errors.ts'

test('work that outlives the deadline is a retryable 408 with reason timeout', async () => {
  const never = new Promise<string>(() => undefined)
  await assert.rejects(withDeadline(never, 5, 'Listing interns'), (error: unknown) => {
    assert.ok(error instanceof GatewayError)
    assert.equal(error.status, 408)
    assert.deepEqual(error.metadata, { reason: 'timeout', retryable: true })
    assert.match(error.message, /Listing interns timed out/)
    return true
  })
})

test('work that finishes in time passes its result or error through', async () => {
  assert.equal(await withDeadline(Promise.resolve('done'), 1000, 'x'), 'done')
  await assert.rejects(withDeadline(Promise.reject(new Error('boom')), 1000, 'x'), /boom/)
})
