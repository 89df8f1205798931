import { test } from 'node:test'
import assert from 'node:assert/strict'
import { makeUsage } from '../../domain/inference/usage.ts'
import { parsePricing } from '../../domain/money.ts'
import { toBillableUsage, usageCostNano } from './billable-usage.ts'

test('cached and reasoning tokens are billed at their own prices, never twice', () => {
  const usage = makeUsage({
    input_tokens: 1000,
    cached_input_tokens: 600,
    cache_write_tokens: 100,
    output_tokens: 500,
    reasoning_tokens: 200,
  })
  assert.deepEqual(toBillableUsage(usage), {
    promptTokens: 300,
    inputCacheReadTokens: 600,
    inputCacheWriteTokens: 100,
    completionTokens: 300,
    reasoningTokens: 200,
  })
  const pricing = parsePricing({
    prompt: '0.000003',
    completion: '0.000015',
    input_cache_read: '0.0000003',
    input_cache_write: '0.00000375',
  })
  // 300*3000 + 600*300 + 100*3750 + 300*15000 + 200*15000 nano-dollars (prices in nano per token)
  assert.equal(usageCostNano(pricing, usage), 300n * 3000n + 600n * 300n + 100n * 3750n + 300n * 15000n + 200n * 15000n)
})

test('inconsistent upstream counts never produce negative token counts', () => {
  const usage = makeUsage({ input_tokens: 10, cached_input_tokens: 50, output_tokens: 5, reasoning_tokens: 9 })
  const billable = toBillableUsage(usage)
  assert.equal(billable.promptTokens, 0)
  assert.equal(billable.inputCacheReadTokens, 10)
  assert.equal(billable.completionTokens, 0)
  assert.equal(billable.reasoningTokens, 5)
})
