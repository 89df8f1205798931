// The pre-built plan answers plain requests exactly as the general planner would: same candidates in
// the same order, same considered list, same refusals, for any prices and any breaker states.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { Catalog, type EndpointEntry, type ModelEntry, type ProviderEntry } from '../../domain/catalog.ts'
import { parsePricing } from '../../domain/money.ts'
import { ManualClock } from '../../../test/support/manual-clock.ts'
import { CircuitBreaker } from './circuit-breaker.ts'
import { EndpointStats } from './endpoint-stats.ts'
import { StickySessions } from './sticky-sessions.ts'
import { planRoute, type RoutePlan } from './plan-route.ts'

function provider(slug: string): ProviderEntry {
  return {
    slug,
    name: slug,
    api: 'openai-chat',
    baseUrl: `http://${slug}`,
    apiKey: null,
    headers: {},
    dataCollection: 'deny',
    zdr: false,
    region: 'global',
    timeoutMs: 1000,
    source: 'config',
  }
}

function modelWith(prices: readonly [number, number][]): { model: ModelEntry; providers: ProviderEntry[] } {
  const providers = prices.map((_, index) => provider(`p${index}`))
  const endpoints: EndpointEntry[] = prices.map(([prompt, completion], index) => {
    const pricingText = { prompt: `0.00000${prompt}`, completion: `0.00000${completion}` }
    return {
      id: `p${index}/m`,
      modelSlug: 'acme/m',
      provider: providers[index]!,
      upstreamModelId: 'm',
      pricingText,
      pricing: parsePricing(pricingText),
      contextLength: 1000,
      maxOutputTokens: null,
      serviceTier: 'default',
      supportedParameters: [],
    }
  })
  const model: ModelEntry = {
    slug: 'acme/m',
    name: 'M',
    kind: 'text',
    description: '',
    contextLength: 1000,
    inputModalities: ['text'],
    outputModalities: ['text'],
    endpoints,
  }
  return { model, providers }
}

type Outcome = { ids: string[]; considered: string[]; excluded: number } | { error: string }

function outcome(plan: () => RoutePlan): Outcome {
  try {
    const result = plan()
    return {
      ids: result.candidates.map((candidate) => candidate.endpoint.id),
      considered: result.considered.map((candidate) => candidate.endpoint.id),
      excluded: result.excluded.length,
    }
  } catch (error) {
    return { error: String(error) }
  }
}

test("plain requests get the general planner's answer for any prices and breaker states", () => {
  const breakerStates = fc.constantFrom('closed', 'open', 'half-open')
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 })), breakerStates), {
        minLength: 1,
        maxLength: 6,
      }),
      (endpoints) => {
        const clock = new ManualClock('2026-11-22T12:00:00Z')
        const { model, providers } = modelWith(endpoints.map(([prices]) => prices))
        const breaker = new CircuitBreaker(clock, { failureThreshold: 1, cooldownMs: 10_000 })
        const state = {
          catalog: new Catalog([model], providers),
          breaker,
          stats: new EndpointStats(),
          sticky: new StickySessions(clock),
        }
        // Open every breaker that should not be closed; move the clock past the cooldown, then open the
        // ones that should stay open, so both half-open and open occur in one catalog.
        endpoints.forEach(([, wanted], index) => wanted !== 'closed' && breaker.recordFailure(`p${index}/m`))
        clock.advance(10_001)
        endpoints.forEach(([, wanted], index) => wanted === 'open' && breaker.recordFailure(`p${index}/m`))
        const plain = outcome(() => planRoute({ models: ['acme/m'], kind: 'text' }, state))
        const general = outcome(() => planRoute({ models: ['acme/m'], kind: 'text', provider: {} }, state))
        assert.deepEqual(plain, general)
      },
    ),
    { numRuns: 300 },
  )
})
