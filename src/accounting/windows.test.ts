import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { ManualClock } from '../../test/support/manual-clock.ts'
import { currentWindow, windowAt } from './windows.ts'
import type { WindowPeriod } from './windows.ts'

const at = (iso: string): number => Date.parse(iso)
const iso = (epochMs: number): string => new Date(epochMs).toISOString()

function expectWindow(period: WindowPeriod, instant: string, id: string, start: string, end: string): void {
  const window = windowAt(period, at(instant))
  assert.deepEqual(
    { id: window.id, start: iso(window.start), end: iso(window.end) },
    { id, start, end },
    `${period} at ${instant}`,
  )
}

describe('daily windows', () => {
  test('the last millisecond of a day and the first of the next are different windows', () => {
    expectWindow(
      'daily',
      '2026-11-22T23:59:59.999Z',
      'd:2026-11-22',
      '2026-11-22T00:00:00.000Z',
      '2026-11-23T00:00:00.000Z',
    )
    expectWindow(
      'daily',
      '2026-11-23T00:00:00.000Z',
      'd:2026-11-23',
      '2026-11-23T00:00:00.000Z',
      '2026-11-24T00:00:00.000Z',
    )
  })

  test('roll over at month and year ends and on leap days', () => {
    expectWindow(
      'daily',
      '2028-02-29T12:00:00.000Z',
      'd:2028-02-29',
      '2028-02-29T00:00:00.000Z',
      '2028-03-01T00:00:00.000Z',
    )
    expectWindow(
      'daily',
      '2027-02-28T23:59:59.999Z',
      'd:2027-02-28',
      '2027-02-28T00:00:00.000Z',
      '2027-03-01T00:00:00.000Z',
    )
    expectWindow(
      'daily',
      '2026-12-31T23:59:59.999Z',
      'd:2026-12-31',
      '2026-12-31T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    )
    expectWindow(
      'daily',
      '2027-01-01T00:00:00.000Z',
      'd:2027-01-01',
      '2027-01-01T00:00:00.000Z',
      '2027-01-02T00:00:00.000Z',
    )
  })
})

describe('weekly windows', () => {
  test('Sunday 23:59:59.999 belongs to the week that began on Monday; Monday 00:00 starts a new one', () => {
    // 2026-11-22 is a Sunday, 2026-11-16 and 2026-11-23 are Mondays.
    expectWindow(
      'weekly',
      '2026-11-22T23:59:59.999Z',
      'w:2026-11-16',
      '2026-11-16T00:00:00.000Z',
      '2026-11-23T00:00:00.000Z',
    )
    expectWindow(
      'weekly',
      '2026-11-23T00:00:00.000Z',
      'w:2026-11-23',
      '2026-11-23T00:00:00.000Z',
      '2026-11-30T00:00:00.000Z',
    )
    expectWindow(
      'weekly',
      '2026-11-16T00:00:00.000Z',
      'w:2026-11-16',
      '2026-11-16T00:00:00.000Z',
      '2026-11-23T00:00:00.000Z',
    )
    expectWindow(
      'weekly',
      '2026-11-15T23:59:59.999Z',
      'w:2026-11-09',
      '2026-11-09T00:00:00.000Z',
      '2026-11-16T00:00:00.000Z',
    )
  })

  test('a week spanning a year end is named by its Monday', () => {
    // 2026-12-28 is a Monday; 2027-01-03 is the Sunday of that week.
    expectWindow(
      'weekly',
      '2027-01-03T23:59:59.999Z',
      'w:2026-12-28',
      '2026-12-28T00:00:00.000Z',
      '2027-01-04T00:00:00.000Z',
    )
    expectWindow(
      'weekly',
      '2027-01-04T00:00:00.000Z',
      'w:2027-01-04',
      '2027-01-04T00:00:00.000Z',
      '2027-01-11T00:00:00.000Z',
    )
  })

  test('a week spanning a leap day', () => {
    // 2028-02-28 is a Monday.
    expectWindow(
      'weekly',
      '2028-03-05T23:59:59.999Z',
      'w:2028-02-28',
      '2028-02-28T00:00:00.000Z',
      '2028-03-06T00:00:00.000Z',
    )
  })
})

describe('monthly windows', () => {
  test('month ends, including a leap February and a common one', () => {
    expectWindow(
      'monthly',
      '2026-11-30T23:59:59.999Z',
      'm:2026-11',
      '2026-11-01T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
    )
    expectWindow(
      'monthly',
      '2026-12-01T00:00:00.000Z',
      'm:2026-12',
      '2026-12-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    )
    expectWindow(
      'monthly',
      '2028-02-29T23:59:59.999Z',
      'm:2028-02',
      '2028-02-01T00:00:00.000Z',
      '2028-03-01T00:00:00.000Z',
    )
    expectWindow(
      'monthly',
      '2028-03-01T00:00:00.000Z',
      'm:2028-03',
      '2028-03-01T00:00:00.000Z',
      '2028-04-01T00:00:00.000Z',
    )
    expectWindow(
      'monthly',
      '2027-02-28T23:59:59.999Z',
      'm:2027-02',
      '2027-02-01T00:00:00.000Z',
      '2027-03-01T00:00:00.000Z',
    )
    expectWindow(
      'monthly',
      '2027-03-01T00:00:00.000Z',
      'm:2027-03',
      '2027-03-01T00:00:00.000Z',
      '2027-04-01T00:00:00.000Z',
    )
  })

  test('the year end', () => {
    expectWindow(
      'monthly',
      '2026-12-31T23:59:59.999Z',
      'm:2026-12',
      '2026-12-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    )
    expectWindow(
      'monthly',
      '2027-01-01T00:00:00.000Z',
      'm:2027-01',
      '2027-01-01T00:00:00.000Z',
      '2027-02-01T00:00:00.000Z',
    )
  })
})

test('currentWindow reads the injected clock', () => {
  const clock = new ManualClock('2026-11-22T23:59:59.999Z')
  assert.equal(currentWindow('daily', clock).id, 'd:2026-11-22')
  clock.advance(1)
  assert.equal(currentWindow('daily', clock).id, 'd:2026-11-23')
  assert.equal(currentWindow('weekly', clock).id, 'w:2026-11-23')
  assert.equal(currentWindow('monthly', clock).id, 'm:2026-11')
})

test('windowAt refuses a non-finite time', () => {
  assert.throws(() => windowAt('daily', Number.NaN), RangeError)
})

describe('window properties', () => {
  const instant = fc.integer({ min: Date.parse('1971-01-01'), max: Date.parse('2200-01-01') })
  const period = fc.constantFrom<WindowPeriod>('daily', 'weekly', 'monthly')

  test('every instant lies in its window, windows tile time, and the id changes exactly at the end', () => {
    fc.assert(
      fc.property(period, instant, (chosen, epochMs) => {
        const window = windowAt(chosen, epochMs)
        assert.ok(window.start <= epochMs && epochMs < window.end)
        assert.equal(windowAt(chosen, window.start).id, window.id)
        assert.equal(windowAt(chosen, window.end - 1).id, window.id)
        const next = windowAt(chosen, window.end)
        assert.equal(next.start, window.end)
        assert.notEqual(next.id, window.id)
        assert.equal(windowAt(chosen, window.start - 1).end, window.start)
      }),
    )
  })

  test('starts fall on midnight UTC, weeks on Mondays, months on the 1st', () => {
    fc.assert(
      fc.property(period, instant, (chosen, epochMs) => {
        const start = new Date(windowAt(chosen, epochMs).start)
        assert.equal(
          start.getUTCHours() + start.getUTCMinutes() + start.getUTCSeconds() + start.getUTCMilliseconds(),
          0,
        )
        if (chosen === 'weekly') assert.equal(start.getUTCDay(), 1)
        if (chosen === 'monthly') assert.equal(start.getUTCDate(), 1)
      }),
    )
  })
})
