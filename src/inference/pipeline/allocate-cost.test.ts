// The per-kind split of a billed cost that observability destinations report.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parsePricing } from '../../domain/money.ts'
import { usageCostNano } from '../pricing/billable-usage.ts'
import { allocateCost } from './allocate-cost.ts'

const pricing = parsePricing({
  prompt: '0.000001',
  completion: '0.000002',
  input_cache_read: '0.0000005',
  input_cache_write: '0.00000125',
  internal_reasoning: '0.000003',
  request: '0.0001',
})

test('each kind is priced alone; cache writes and the request fee go with the prompt', () => {
  // 100 input tokens of which 20 cached and 10 written to the cache; 50 output tokens of which 30 reasoning.
  const usage = {
    input_tokens: 100,
    cached_input_tokens: 20,
    cache_write_tokens: 10,
    output_tokens: 50,
    reasoning_tokens: 30,
    total_tokens: 150,
  }
  const billed = usageCostNano(pricing, usage)
  assert.equal(billed, 322_500n)
  assert.deepEqual(allocateCost(pricing, usage, billed), {
    prompt: 0.0001825,
    completion: 0.00004,
    cached: 0.00001,
    reasoning: 0.00009,
  })
})

test('no allocation when the parts, each rounded up to a nano-dollar, do not add up to the billed cost', () => {
  const halfNano = parsePricing({ prompt: '0.0000000005', completion: '0.0000000005' })
  const usage = {
    input_tokens: 1,
    cached_input_tokens: 0,
    cache_write_tokens: 0,
    output_tokens: 1,
    reasoning_tokens: 0,
    total_tokens: 2,
  }
  assert.equal(usageCostNano(halfNano, usage), 1n)
  assert.equal(allocateCost(halfNano, usage, 1n), null)
})
