import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { isGatewayError } from './errors.ts'
import { attoToNanoCeil, costAtto, costNano, nanoToUsd, parsePrice, parsePricing, usdToNano } from './money.ts'
import type { BillableUsage, Pricing } from './money.ts'

const ATTO_PER_NANO = 1_000_000_000n

describe('parsePrice', () => {
  test('parses decimal USD per token to atto-dollars per token', () => {
    assert.equal(parsePrice('0.0000002'), 200_000_000_000n)
    assert.equal(parsePrice('0.000000075'), 75_000_000_000n)
    assert.equal(parsePrice('0'), 0n)
    assert.equal(parsePrice('3'), 3_000_000_000_000_000_000n)
    assert.equal(parsePrice('0.000000000000000001'), 1n)
    assert.equal(parsePrice('0.0000000000000000010000'), 1n, 'trailing zeros past 18 places are harmless')
  })

  for (const bad of ['', '-0.1', '1e-7', '.5', '5.', ' 1', '0x10', 'NaN', '1,5', '0.0000000000000000001']) {
    test(`refuses ${JSON.stringify(bad)} with invalid_request`, () => {
      assert.throws(
        () => parsePrice(bad),
        (error) => isGatewayError(error) && error.kind === 'invalid_request',
      )
    })
  }
})

describe('costNano', () => {
  const pricing = parsePricing({ prompt: '0.0000002', completion: '0.000000075', request: '0.001' })

  test('multiplies prices per token exactly', () => {
    // 1000 * 200 nano + 1000 * 75 nano
    assert.equal(costNano(pricing, { promptTokens: 1000, completionTokens: 1000, requests: 0 }), 275_000n)
  })

  test('rounds the exact sum of sub-nano prices up once, not each part', () => {
    const fine = parsePricing({ prompt: '0.0000000002', completion: '0.000000000075' })
    // 3 * 0.075 nano + 4 * 0.2 nano = 1.025 nano exactly; rounded once: 2. Per part it would be 1 + 1 = 2
    // for this usage, but 3 completion tokens alone are 0.225 nano -> 1, and 40 of them 3 nano exactly.
    assert.equal(costAtto(fine, { promptTokens: 4, completionTokens: 3 }), 1_025_000_000n)
    assert.equal(costNano(fine, { promptTokens: 4, completionTokens: 3 }), 2n)
    assert.equal(costNano(fine, { promptTokens: 0, completionTokens: 3 }), 1n)
    assert.equal(costNano(fine, { promptTokens: 0, completionTokens: 40 }), 3n)
    assert.equal(costNano(fine, { promptTokens: 5, completionTokens: 40 }), 4n, '1 + 3 nano exactly, no rounding')
    assert.equal(costNano(fine, { promptTokens: 1, completionTokens: 1 }), 1n, '0.275 nano rounds up to 1, not 1 + 1')
  })

  test('charges the request fee once per request by default', () => {
    assert.equal(costNano(pricing, { promptTokens: 0, completionTokens: 0 }), 1_000_000n)
    assert.equal(costNano(pricing, { promptTokens: 0, completionTokens: 0, requests: 2 }), 2_000_000n)
  })

  test('bills kinds without their own price at the parent price, never free', () => {
    const fallback = parsePricing({ prompt: '0.000001', completion: '0.000002' })
    assert.equal(costNano(fallback, { promptTokens: 0, completionTokens: 0, inputCacheReadTokens: 1 }), 1_000n)
    assert.equal(costNano(fallback, { promptTokens: 0, completionTokens: 0, inputCacheWriteTokens: 1 }), 1_000n)
    assert.equal(costNano(fallback, { promptTokens: 0, completionTokens: 0, reasoningTokens: 1 }), 2_000n)
    const own = parsePricing({
      prompt: '0.000001',
      completion: '0.000002',
      input_cache_read: '0.0000001',
      input_cache_write: '0.00000125',
      internal_reasoning: '0.000003',
    })
    assert.equal(
      costNano(own, {
        promptTokens: 0,
        completionTokens: 0,
        inputCacheReadTokens: 1,
        inputCacheWriteTokens: 1,
        reasoningTokens: 1,
      }),
      100n + 1_250n + 3_000n,
    )
  })

  test('refuses negative or fractional token counts', () => {
    for (const usage of [
      { promptTokens: -1, completionTokens: 0 },
      { promptTokens: 0, completionTokens: 1.5 },
      { promptTokens: Number.NaN, completionTokens: 0 },
    ]) {
      assert.throws(
        () => costNano(pricing, usage),
        (error) => isGatewayError(error) && error.kind === 'invalid_request',
      )
    }
  })
})

const priceText = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer({ min: 0, max: 18 }))
  .map(([digits, places]) => {
    const text = digits.toString().padStart(places + 1, '0')
    return places === 0 ? text : `${text.slice(0, -places)}.${text.slice(-places)}`
  })
const pricingArbitrary: fc.Arbitrary<Pricing> = fc
  .record({
    prompt: priceText,
    completion: priceText,
    input_cache_read: priceText,
    input_cache_write: priceText,
    internal_reasoning: priceText,
    request: priceText,
  })
  .map(parsePricing)
const tokens = fc.integer({ min: 0, max: 2_000_000 })
const usageArbitrary: fc.Arbitrary<BillableUsage> = fc.record({
  promptTokens: tokens,
  completionTokens: tokens,
  inputCacheReadTokens: tokens,
  inputCacheWriteTokens: tokens,
  reasoningTokens: tokens,
  requests: fc.integer({ min: 0, max: 3 }),
})

function addUsage(a: BillableUsage, b: BillableUsage): BillableUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    inputCacheReadTokens: (a.inputCacheReadTokens ?? 0) + (b.inputCacheReadTokens ?? 0),
    inputCacheWriteTokens: (a.inputCacheWriteTokens ?? 0) + (b.inputCacheWriteTokens ?? 0),
    reasoningTokens: (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0),
    requests: (a.requests ?? 1) + (b.requests ?? 1),
  }
}

describe('money properties', () => {
  test('a price string round-trips through atto-dollars exactly', () => {
    fc.assert(
      fc.property(priceText, (text) => {
        const atto = parsePrice(text)
        const [whole = '0', fraction = ''] = text.split('.')
        const expected = BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, '0'))
        assert.equal(atto, expected)
      }),
    )
  })

  test('the exact cost of a whole equals the sum of its parts', () => {
    fc.assert(
      fc.property(pricingArbitrary, usageArbitrary, usageArbitrary, (pricing, a, b) => {
        assert.equal(costAtto(pricing, addUsage(a, b)), costAtto(pricing, a) + costAtto(pricing, b))
      }),
    )
  })

  test('rounding is up, by less than one nano-dollar, once per cost', () => {
    fc.assert(
      fc.property(pricingArbitrary, usageArbitrary, usageArbitrary, (pricing, a, b) => {
        const exact = costAtto(pricing, a)
        const nano = costNano(pricing, a)
        assert.ok(nano * ATTO_PER_NANO >= exact, 'never under-billed')
        assert.ok(nano * ATTO_PER_NANO - exact < ATTO_PER_NANO, 'over-billed by less than one nano-dollar')
        const whole = costNano(pricing, addUsage(a, b))
        const parts = costNano(pricing, a) + costNano(pricing, b)
        assert.ok(whole <= parts && parts <= whole + 1n, `whole ${whole}, parts ${parts}`)
      }),
    )
  })

  test('summing many small costs as nano integers never drifts like floats do', () => {
    const pricing = parsePricing({ prompt: '0.0000001', completion: '0' })
    let total = 0n
    let floatTotal = 0
    for (let index = 0; index < 10_000; index += 1) {
      total += costNano(pricing, { promptTokens: 1, completionTokens: 0 })
      floatTotal += 0.0000001
    }
    assert.equal(total, 1_000_000n)
    assert.equal(nanoToUsd(total), 0.001)
    assert.notEqual(floatTotal, 0.001, 'the float sum drifts; the integer sum does not')
  })

  test('attoToNanoCeil is the least nano amount covering the atto amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (atto) => {
        const nano = attoToNanoCeil(atto)
        assert.ok(nano * ATTO_PER_NANO >= atto && (nano - 1n) * ATTO_PER_NANO < atto)
      }),
    )
  })
})

describe('usdToNano and nanoToUsd', () => {
  test('convert common limits exactly', () => {
    assert.equal(usdToNano(12.5), 12_500_000_000n)
    assert.equal(usdToNano(0.1), 100_000_000n)
    assert.equal(usdToNano(0.000000001), 1n)
    assert.equal(usdToNano(1e-7), 100n)
    assert.equal(usdToNano(0), 0n)
    assert.equal(usdToNano(-2.25), -2_250_000_000n)
    assert.equal(usdToNano(1e21), 10n ** 30n)
    assert.equal(usdToNano(999_999.999999999), 999_999_999_999_999n)
    assert.equal(nanoToUsd(12_500_000_000n), 12.5)
    assert.equal(nanoToUsd(1n), 1e-9)
    assert.equal(nanoToUsd(-1n), -1e-9)
    assert.equal(nanoToUsd(0n), 0)
  })

  test('round amounts finer than a nano-dollar to the nearest', () => {
    assert.equal(usdToNano(1e-10), 0n)
    assert.equal(usdToNano(5e-10), 1n)
    assert.equal(usdToNano(1.4e-9), 1n)
    assert.equal(usdToNano(1.6e-9), 2n)
  })

  test('refuse non-finite numbers', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      assert.throws(() => usdToNano(value), RangeError)
    }
  })

  test('every decimal with at most 9 places below one million USD converts exactly, both ways', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }), (nano) => {
        const sign = nano < 0n ? '-' : ''
        const magnitude = nano < 0n ? -nano : nano
        const decimal = `${sign}${magnitude / 1_000_000_000n}.${(magnitude % 1_000_000_000n).toString().padStart(9, '0')}`
        assert.equal(usdToNano(Number(decimal)), nano)
        assert.equal(nanoToUsd(nano), Number(decimal))
      }),
    )
  })
})
