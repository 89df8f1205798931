import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ShutdownStack, startOrUnwind } from './shutdown-stack.ts'

function recordingStack(): { stack: ShutdownStack; failures: [string, unknown][] } {
  const failures: [string, unknown][] = []
  return { stack: new ShutdownStack((part, error) => failures.push([part, error])), failures }
}

test('close() stops the parts in reverse start order, awaiting each before the next', async () => {
  const { stack, failures } = recordingStack()
  const stopped: string[] = []
  for (const part of ['store', 'ledger', 'http app']) {
    stack.defer(part, async () => {
      await new Promise((resolve) => setTimeout(resolve, part === 'http app' ? 20 : 0))
      stopped.push(part)
    })
  }
  await stack.close()
  assert.deepEqual(stopped, ['http app', 'ledger', 'store'])
  assert.deepEqual(failures, [])
})

test('a start that fails half-way stops what it had started, in reverse, then rethrows its error', async () => {
  const { stack } = recordingStack()
  const stopped: string[] = []
  const failure = new Error('migration failed')
  await assert.rejects(
    startOrUnwind(stack, async () => {
      stack.defer('store', () => stopped.push('store'))
      stack.defer('counters', () => stopped.push('counters'))
      throw failure
    }),
    (error) => error === failure,
  )
  assert.deepEqual(stopped, ['counters', 'store'])
})

test('a part whose close() fails is reported, and the parts after it are still closed', async () => {
  const { stack, failures } = recordingStack()
  const stopped: string[] = []
  const broken = new Error('redis went away')
  stack.defer('store', () => stopped.push('store'))
  stack.defer('counters', async () => {
    throw broken
  })
  stack.defer('http app', () => stopped.push('http app'))
  await stack.close()
  assert.deepEqual(stopped, ['http app', 'store'])
  assert.deepEqual(failures, [['counters', broken]])
})

test('a close() failure while unwinding a failed start is reported and the start error still propagates', async () => {
  const { stack, failures } = recordingStack()
  const broken = new Error('could not close')
  await assert.rejects(
    startOrUnwind(stack, async () => {
      stack.defer('store', () => {
        throw broken
      })
      throw new Error('bootstrap failed')
    }),
    /bootstrap failed/,
  )
  assert.deepEqual(failures, [['store', broken]])
})

test('closing twice closes each part once; a part cannot start once shutdown has begun', async () => {
  const { stack } = recordingStack()
  let closes = 0
  stack.defer('store', () => void closes++)
  await Promise.all([stack.close(), stack.close()])
  assert.equal(closes, 1)
  assert.throws(() => stack.defer('late worker', () => undefined), /shutdown has begun/)
})
