import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { nanoToUsd } from '../domain/money.ts'
import { usdAmounts, usdText } from './activity-json.ts'

/** What a JSON serializer writes of the USD number of `nano` (the text the answer had before). */
const serialized = (nano: bigint) => JSON.stringify(nanoToUsd(nano))

describe('usdText', () => {
  test('writes the USD number as JSON.stringify writes nanoToUsd', () => {
    const edges = [0n, 1n, 5n, 100n, 150n, 999n, 1000n, 1_250_000n, 1_000_000_000n, 123_456_789_012_345n]
    const wide = [999_999_999_999_999n, 1_000_000_000_000_000n, 9_007_199_254_740_993n, 12_345_678_901_234_567_891n]
    for (const nano of [...edges, ...wide, ...[...edges, ...wide].map((value) => -value)])
      assert.equal(usdText(String(nano)), serialized(nano), String(nano))
  })

  test('agrees with nanoToUsd on every magnitude', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.integer({ min: 0, max: 20 }),
        (big, digits) => {
          const nano = big % 10n ** BigInt(digits + 1)
          assert.equal(usdText(String(nano)), serialized(nano))
        },
      ),
      { numRuns: 2000 },
    )
  })
})

describe('usdAmounts', () => {
  const item = (usage: string, byok: string, model = 'a/b') =>
    `{"date":"2026-11-26","model":${JSON.stringify(model)},"model_permaslug":${JSON.stringify(model)},"endpoint_id":"a/b","provider_name":"a","usage":${usage},"byok_usage_inference":${byok},"requests":1,"prompt_tokens":2,"completion_tokens":3,"reasoning_tokens":0}`

  test("turns each item's nano-dollars into USD and leaves strings alone", () => {
    const tricky = ',"usage":7,"byok_usage_inference":8,'
    const items = [item('1250000', '0'), item('100', '3000000000', tricky)].join(',')
    assert.equal(usdAmounts(items, 2), [item('0.00125', '0'), item('1e-7', '3', tricky)].join(','))
    assert.equal(usdAmounts('', 0), '')
  })

  test('refuses text whose amounts are not all integers', () => {
    assert.throws(() => usdAmounts(item('1.5', '0'), 1), /1 items but 0 integer USD amounts/)
    assert.throws(() => usdAmounts(item('1', '0'), 2), /2 items but 1 integer/)
  })
})
