import { test } from 'node:test'
import assert from 'node:assert/strict'
import { InFlight } from './in-flight.ts'

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void
  let reject!: (error: Error) => void
  const promise = new Promise<void>((yes, no) => {
    resolve = yes
    reject = no
  })
  return { promise, resolve, reject }
}

test('settled() waits for every tracked piece of work, failed ones and ones started meanwhile included', async () => {
  const inFlight = new InFlight()
  const first = deferred()
  const second = deferred()
  const later = deferred()
  inFlight.track(first.promise)
  inFlight.track(second.promise).catch(() => undefined)
  let isSettled = false
  const settled = inFlight.settled().then(() => (isSettled = true))
  first.resolve()
  await first.promise
  assert.equal(isSettled, false, 'one piece is still running')
  inFlight.track(later.promise)
  second.reject(new Error('refused'))
  await second.promise.catch(() => undefined)
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(isSettled, false, 'work started while waiting is waited for too')
  later.resolve()
  await settled
  assert.equal(inFlight.size, 0)
})

test('track() hands back the work itself, its failure included', async () => {
  const inFlight = new InFlight()
  assert.equal(await inFlight.track(Promise.resolve(7)), 7)
  await assert.rejects(inFlight.track(Promise.reject(new Error('no'))), /no/)
  await inFlight.settled()
})
