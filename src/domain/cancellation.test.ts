import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { Cancellation, neverCancelled, toAbortSignal } from './cancellation.ts'

describe('Cancellation', () => {
  test('runs each listener once, in order, when aborted; a second abort does nothing', () => {
    const cancellation = new Cancellation()
    const calls: string[] = []
    cancellation.addEventListener('abort', () => calls.push('first'))
    cancellation.addEventListener('abort', () => calls.push('second'))
    assert.equal(cancellation.aborted, false)
    cancellation.abort()
    cancellation.abort()
    assert.equal(cancellation.aborted, true)
    assert.deepEqual(calls, ['first', 'second'])
  })

  test('does not run a listener that was removed, nor one added after the abort', () => {
    const cancellation = new Cancellation()
    const calls: string[] = []
    const removed = (): void => void calls.push('removed')
    cancellation.addEventListener('abort', removed)
    cancellation.addEventListener('abort', () => calls.push('kept'))
    cancellation.removeEventListener('abort', removed)
    cancellation.abort()
    cancellation.addEventListener('abort', () => calls.push('late'))
    assert.deepEqual(calls, ['kept'])
  })
})

describe('toAbortSignal', () => {
  test('returns a real AbortSignal as it is', () => {
    const signal = new AbortController().signal
    assert.equal(toAbortSignal(signal), signal)
  })

  test('gives a real AbortSignal that aborts with the cancellation, for AbortSignal.any and fetch', () => {
    const cancellation = new Cancellation()
    const signal = toAbortSignal(cancellation)
    const combined = AbortSignal.any([signal, AbortSignal.timeout(60_000)])
    assert.ok(signal instanceof AbortSignal)
    assert.equal(combined.aborted, false)
    cancellation.abort()
    assert.equal(signal.aborted, true)
    assert.equal(combined.aborted, true)
  })

  test('is already aborted for a cancellation that was, and never for neverCancelled', () => {
    const cancellation = new Cancellation()
    cancellation.abort()
    assert.equal(toAbortSignal(cancellation).aborted, true)
    assert.equal(toAbortSignal(neverCancelled).aborted, false)
  })
})
