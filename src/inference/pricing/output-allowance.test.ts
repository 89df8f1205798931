import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { EndpointEntry, ProviderEntry } from '../../domain/catalog.ts'
import type { CanonicalCall } from '../../domain/inference/call.ts'
import { costNano, parsePricing } from '../../domain/money.ts'
import { outputAllowance } from './output-allowance.ts'

const provider: ProviderEntry = {
  slug: 'acme',
  name: 'Acme',
  api: 'openai-chat',
  baseUrl: 'http://acme',
  apiKey: null,
  headers: {},
  dataCollection: 'deny',
  zdr: false,
  region: 'global',
  timeoutMs: 1000,
  source: 'config',
}

function endpoint(id: string, prompt: string, completion: string, maxOutputTokens: number | null): EndpointEntry {
  const pricingText = { prompt, completion }
  return {
    id,
    modelSlug: 'acme/model',
    provider,
    upstreamModelId: id,
    pricingText,
    pricing: parsePricing(pricingText),
    contextLength: 10_000,
    maxOutputTokens,
    serviceTier: 'default',
    supportedParameters: [],
  }
}

const call = (maxOutputTokens?: number): Omit<CanonicalCall, 'model'> => ({
  messages: [{ role: 'user', content: 'hi' }],
  stream: false,
  ...(maxOutputTokens === undefined ? {} : { max_output_tokens: maxOutputTokens }),
})

test('the affordable output is the most tokens whose cost with the input fits, at the dearest endpoint', () => {
  const cheap = endpoint('cheap', '0.000001', '0.000002', null)
  const fractional = endpoint('fractional', '0.000001', '0.0000000035', null)
  const allowance = outputAllowance(call(500), [cheap, fractional], 100)
  assert.equal(allowance.requestedTokens, 500)
  for (const available of [0n, 99_999n, 100_000n, 100_001n, 123_456n, 1_000_000n]) {
    const affordable = allowance.affordableTokens(available)
    const fits = (tokens: number) =>
      [cheap, fractional].every(
        (candidate) => costNano(candidate.pricing, { promptTokens: 100, completionTokens: tokens }) <= available,
      )
    if (affordable < 500) assert.ok(!fits(affordable + 1), `${affordable + 1} tokens do not fit in ${available}`)
    if (affordable > 0) assert.ok(fits(affordable), `${affordable} tokens fit in ${available}`)
  }
  assert.equal(allowance.affordableTokens(100_000n + 2_000n * 7n), 7)
  assert.equal(allowance.affordableTokens(10n ** 12n), 500, 'never more than requested')
})

test('without max_tokens the allowance assumes the largest endpoint output limit', () => {
  const allowance = outputAllowance(
    call(),
    [endpoint('a', '0', '0.000001', 300), endpoint('b', '0', '0.000001', 800)],
    10,
  )
  assert.equal(allowance.requestedTokens, 800)
  assert.equal(allowance.affordableTokens(5_000n), 5)
})
