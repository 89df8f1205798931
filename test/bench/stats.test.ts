import { test } from 'node:test'
import assert from 'node:assert/strict'
import { percentile, summarize } from '../../bench/stats.ts'

test('nearest-rank percentiles over 1..100', () => {
  const samples = Array.from({ length: 100 }, (_, index) => index + 1)
  assert.equal(percentile(samples, 50), 50)
  assert.equal(percentile(samples, 99), 99)
  assert.equal(percentile(samples, 100), 100)
  assert.equal(percentile(samples, 0), 1)
})

test('percentiles of a small set round up to the next sample', () => {
  assert.equal(percentile([1, 2, 3], 50), 2)
  assert.equal(percentile([1, 2, 3], 99), 3)
  assert.equal(percentile([7], 50), 7)
  assert.ok(Number.isNaN(percentile([], 50)))
})

test('summarize sorts numerically, not as strings', () => {
  const summary = summarize([10, 9, 100, 2, 1])
  assert.equal(summary.count, 5)
  assert.equal(summary.p50, 9)
  assert.equal(summary.max, 100)
  assert.equal(summary.mean, 24.4)
})
