import { test } from 'node:test'
import assert from 'node:assert/strict'
import { findBudgetOrderConflict } from './budget-order.ts'
import { formatUsdDecimal } from './format-usd-decimal.ts'

test('strictly decreasing limits pass, in any subset', () => {
  assert.equal(findBudgetOrderConflict({}), undefined)
  assert.equal(findBudgetOrderConflict({ weekly: 5 }), undefined)
  assert.equal(findBudgetOrderConflict({ lifetime: 1000, monthly: 100, weekly: 30, daily: 5 }), undefined)
  assert.equal(findBudgetOrderConflict({ lifetime: 10, daily: 9.99 }), undefined)
})

test('equal or inverted limits name the conflicting pair, longer window first', () => {
  assert.deepEqual(findBudgetOrderConflict({ monthly: 10, daily: 10 }), {
    longer: 'monthly',
    shorter: 'daily',
    longerLimit: 10,
    shorterLimit: 10,
  })
  assert.deepEqual(findBudgetOrderConflict({ lifetime: 50, weekly: 60 }), {
    longer: 'lifetime',
    shorter: 'weekly',
    longerLimit: 50,
    shorterLimit: 60,
  })
  assert.deepEqual(findBudgetOrderConflict({ lifetime: 100, monthly: 50, weekly: 10, daily: 20 }), {
    longer: 'weekly',
    shorter: 'daily',
    longerLimit: 10,
    shorterLimit: 20,
  })
})

test('USD amounts are stored as plain decimal strings', () => {
  assert.equal(formatUsdDecimal(12.5), '12.5')
  assert.equal(formatUsdDecimal(0.0000001), '0.0000001')
  assert.equal(formatUsdDecimal(100), '100')
})
