// isoTime writes what Date.prototype.toISOString writes, for any time a Date holds (fractional, negative,
// six-digit years), whether or not the second before was cached; an invalid time throws the same error.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { isoDay, isoTime } from './iso-time.ts'

const maxDateMs = 8.64e15

test('isoTime matches toISOString, in the cached second and out of it', () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.double({ min: -maxDateMs, max: maxDateMs, noNaN: true }), fc.integer({ min: -5000, max: 5000 })),
      fc.integer({ min: -1500, max: 1500 }),
      (time, step) => {
        assert.equal(isoTime(time), new Date(time).toISOString())
        const next = Math.min(maxDateMs, Math.max(-maxDateMs, time + step))
        assert.equal(isoTime(next), new Date(next).toISOString())
        if (Math.abs(time) < 2.5e14) assert.equal(isoDay(time), new Date(time).toISOString().slice(0, 10))
      },
    ),
    { numRuns: 5000 },
  )
})

test('isoTime at the edges of seconds, days and years', () => {
  const edges = [0, -0, -1, 999, 1000, 1001, -999, -1000, -1001, 0.9, -0.9, 1_764_633_599_999, 1_764_633_600_000]
  for (const time of edges) assert.equal(isoTime(time), new Date(time).toISOString(), `at ${time}`)
  assert.equal(isoTime(Date.UTC(2026, 11, 2, 3, 4, 5, 7)), '2026-12-02T03:04:05.007Z')
  assert.equal(isoTime(Date.UTC(2026, 11, 2, 3, 4, 5, 70)), '2026-12-02T03:04:05.070Z')
  assert.equal(isoDay(Date.UTC(2026, 11, 31, 23, 59, 59, 999)), '2026-12-31')
})

test('isoTime throws for a time no Date holds', () => {
  for (const time of [Number.NaN, Infinity, maxDateMs + 1]) {
    assert.throws(() => isoTime(time), RangeError)
    assert.throws(() => isoDay(time), RangeError)
  }
})
