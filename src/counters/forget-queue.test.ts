import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ForgetQueue } from './forget-queue.ts'

test('forgets the ids due, oldest first, and keeps the rest', () => {
  const queue = new ForgetQueue()
  const remembered = new Map([
    ['a', 1],
    ['b', 2],
    ['c', 3],
  ])
  queue.add('a', 100)
  queue.add('b', 200)
  queue.add('c', 200)
  queue.forgetDue(99, remembered)
  assert.deepEqual([...remembered.keys()], ['a', 'b', 'c'])
  queue.forgetDue(100, remembered)
  assert.deepEqual([...remembered.keys()], ['b', 'c'])
  queue.forgetDue(250, remembered)
  assert.equal(remembered.size, 0)
  assert.equal(queue.size, 0)
})

test('ids added after the queue compacted are still forgotten when due, and not before', () => {
  const queue = new ForgetQueue()
  const remembered = new Set<string>()
  for (let index = 0; index < 5000; index++) {
    remembered.add(`id-${index}`)
    queue.add(`id-${index}`, index)
  }
  queue.forgetDue(2999, remembered)
  assert.equal(remembered.size, 2000)
  assert.equal(queue.size, 2000)
  remembered.add('late')
  queue.add('late', 10_000)
  queue.forgetDue(4999, remembered)
  assert.deepEqual([...remembered], ['late'])
  queue.forgetDue(9_999, remembered)
  assert.deepEqual([...remembered], ['late'])
  queue.forgetDue(10_000, remembered)
  assert.equal(remembered.size, 0)
})
