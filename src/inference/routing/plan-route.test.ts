import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  Catalog,
  type EndpointEntry,
  type ModelEntry,
  type ProviderEntry,
  type ServiceTier,
} from '../../domain/catalog.ts'
import { parsePricing } from '../../domain/money.ts'
import { GatewayError } from '../../domain/errors.ts'
import { ManualClock } from '../../../test/support/manual-clock.ts'
import { CircuitBreaker } from './circuit-breaker.ts'
import { EndpointStats } from './endpoint-stats.ts'
import { StickySessions } from './sticky-sessions.ts'
import { planRoute, type RouteRequest } from './plan-route.ts'

function provider(slug: string, extra: Partial<ProviderEntry> = {}): ProviderEntry {
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
    ...extra,
  }
}

function endpoint(
  model: string,
  p: ProviderEntry,
  prompt: string,
  completion: string,
  tier: ServiceTier = 'default',
  supported = ['temperature'],
): EndpointEntry {
  const pricingText = { prompt, completion }
  return {
    id: `${p.slug}/${model}`,
    modelSlug: model,
    provider: p,
    upstreamModelId: model,
    pricingText,
    pricing: parsePricing(pricingText),
    contextLength: 1000,
    maxOutputTokens: null,
    serviceTier: tier,
    supportedParameters: supported,
  }
}

const cheap = provider('cheap')
const fast = provider('fast', { zdr: true })
const collector = provider('collector', { dataCollection: 'allow' })
const models: ModelEntry[] = [
  {
    slug: 'acme/chat',
    name: 'Chat',
    kind: 'text',
    description: '',
    contextLength: 1000,
    inputModalities: ['text'],
    outputModalities: ['text'],
    endpoints: [
      endpoint('acme/chat', fast, '0.000003', '0.000006', 'priority', ['temperature', 'tools']),
      endpoint('acme/chat', cheap, '0.000001', '0.000002'),
      endpoint('acme/chat', collector, '0.0000005', '0.000001', 'ultrafast'),
    ],
  },
  {
    slug: 'acme/backup',
    name: 'Backup',
    kind: 'text',
    description: '',
    contextLength: 1000,
    inputModalities: ['text'],
    outputModalities: ['text'],
    endpoints: [endpoint('acme/backup', cheap, '0.000001', '0.000001')],
  },
  {
    slug: 'acme/embed',
    name: 'Embed',
    kind: 'embedding',
    description: '',
    contextLength: 1000,
    inputModalities: ['text'],
    outputModalities: ['embeddings'],
    endpoints: [endpoint('acme/embed', cheap, '0.0000001', '0')],
  },
]

function setup() {
  const clock = new ManualClock('2026-11-22T12:00:00Z')
  const state = {
    catalog: new Catalog(models, [cheap, fast, collector]),
    breaker: new CircuitBreaker(clock, { failureThreshold: 2, cooldownMs: 10_000 }),
    stats: new EndpointStats(),
    sticky: new StickySessions(clock),
  }
  const ids = (request: Partial<RouteRequest>) =>
    planRoute({ models: ['acme/chat'], kind: 'text', ...request }, state).candidates.map(
      (candidate) => candidate.endpoint.id,
    )
  return { clock, state, ids }
}

test('default order is cheapest first, then the fallback models in order', () => {
  const { ids } = setup()
  assert.deepEqual(ids({ models: ['acme/chat', 'acme/backup'] }), [
    'collector/acme/chat',
    'cheap/acme/chat',
    'fast/acme/chat',
    'cheap/acme/backup',
  ])
})

test('allow_fallbacks: false keeps only the first endpoint of each model', () => {
  const { ids } = setup()
  assert.deepEqual(ids({ provider: { allow_fallbacks: false } }), ['collector/acme/chat'])
})

test('order puts named providers first; only and ignore filter', () => {
  const { ids } = setup()
  assert.deepEqual(ids({ provider: { order: ['fast', 'cheap'] } }), [
    'fast/acme/chat',
    'cheap/acme/chat',
    'collector/acme/chat',
  ])
  assert.deepEqual(ids({ provider: { only: ['cheap', 'fast'] } }), ['cheap/acme/chat', 'fast/acme/chat'])
  assert.deepEqual(ids({ provider: { ignore: ['collector'] } }), ['cheap/acme/chat', 'fast/acme/chat'])
})

test('sort by throughput and latency uses live statistics', () => {
  const { ids, state } = setup()
  state.stats.recordThroughput('fast/acme/chat', 1000, 1000)
  state.stats.recordThroughput('cheap/acme/chat', 100, 1000)
  state.stats.recordLatency('cheap/acme/chat', 50)
  state.stats.recordLatency('collector/acme/chat', 500)
  state.stats.recordLatency('fast/acme/chat', 900)
  assert.deepEqual(ids({ provider: { sort: 'throughput' } }), [
    'fast/acme/chat',
    'cheap/acme/chat',
    'collector/acme/chat',
  ])
  assert.deepEqual(ids({ provider: { sort: { by: 'latency' } } }), [
    'cheap/acme/chat',
    'collector/acme/chat',
    'fast/acme/chat',
  ])
  assert.deepEqual(ids({ defaultSort: 'latency' }), ['cheap/acme/chat', 'collector/acme/chat', 'fast/acme/chat'])
})

test('max_price (USD per million tokens) excludes endpoints above it, at the limit is kept', () => {
  const { ids } = setup()
  assert.deepEqual(ids({ provider: { max_price: { prompt: 1 } } }), ['collector/acme/chat', 'cheap/acme/chat'])
  assert.deepEqual(ids({ provider: { max_price: { prompt: 0.99, completion: 5 } } }), ['collector/acme/chat'])
})

test('data_collection deny, zdr and require_parameters filter endpoints', () => {
  const { ids } = setup()
  assert.deepEqual(ids({ provider: { data_collection: 'deny' } }), ['cheap/acme/chat', 'fast/acme/chat'])
  assert.deepEqual(ids({ provider: { zdr: true } }), ['fast/acme/chat'])
  assert.deepEqual(ids({ provider: { require_parameters: true }, usedParameters: ['tools'] }), ['fast/acme/chat'])
})

test('service tiers: fast = priority first; ultrafast prefers ultrafast, then priority, then default', () => {
  const { ids } = setup()
  assert.deepEqual(ids({ serviceTier: 'fast', provider: { ignore: ['collector'] } }), [
    'fast/acme/chat',
    'cheap/acme/chat',
  ])
  assert.deepEqual(ids({ serviceTier: 'priority' }), ['fast/acme/chat', 'cheap/acme/chat', 'collector/acme/chat'])
  assert.deepEqual(ids({ serviceTier: 'ultrafast' }), ['collector/acme/chat', 'fast/acme/chat', 'cheap/acme/chat'])
})

test('a sticky session goes back to the endpoint that served it', () => {
  const { ids, state } = setup()
  state.sticky.remember('session-1', 'fast/acme/chat')
  assert.deepEqual(ids({ sessionKey: 'session-1' })[0], 'fast/acme/chat')
  assert.deepEqual(ids({ sessionKey: 'session-2' })[0], 'collector/acme/chat')
})

test('the breaker opens after repeated failures, skips the endpoint even when alone, then probes once and closes', () => {
  const { ids, state, clock } = setup()
  const only = { provider: { only: ['cheap'] } }
  state.breaker.recordFailure('cheap/acme/chat')
  assert.deepEqual(ids(only), ['cheap/acme/chat'])
  state.breaker.recordFailure('cheap/acme/chat')
  assert.equal(state.breaker.state('cheap/acme/chat'), 'open')
  assert.throws(
    () => ids(only),
    (error: unknown) => error instanceof GatewayError && error.kind === 'unavailable',
  )
  assert.deepEqual(ids({}), ['collector/acme/chat', 'fast/acme/chat'])
  clock.advance(9_999)
  assert.equal(state.breaker.state('cheap/acme/chat'), 'open')
  clock.advance(1)
  assert.equal(state.breaker.state('cheap/acme/chat'), 'half-open')
  assert.equal(state.breaker.tryAcquire('cheap/acme/chat'), true)
  assert.equal(state.breaker.tryAcquire('cheap/acme/chat'), false, 'one probe at a time')
  state.breaker.recordFailure('cheap/acme/chat')
  assert.equal(state.breaker.state('cheap/acme/chat'), 'open', 'a failed probe reopens')
  clock.advance(10_000)
  assert.equal(state.breaker.tryAcquire('cheap/acme/chat'), true)
  state.breaker.recordSuccess('cheap/acme/chat')
  assert.equal(state.breaker.state('cheap/acme/chat'), 'closed')
  assert.deepEqual(ids(only), ['cheap/acme/chat'])
})

test('unknown models are 404, a route of the wrong kind is 400, nothing matching is 404 with reasons', () => {
  const { ids } = setup()
  assert.throws(
    () => ids({ models: ['acme/nope'] }),
    (error: unknown) => error instanceof GatewayError && error.status === 404 && /acme\/nope/.test(error.message),
  )
  assert.throws(
    () => ids({ models: ['acme/embed'] }),
    (error: unknown) => error instanceof GatewayError && error.status === 400,
  )
  assert.throws(
    () => ids({ provider: { only: ['nobody'] } }),
    (error: unknown) =>
      error instanceof GatewayError && error.status === 404 && /not in provider.only/.test(error.message),
  )
  assert.deepEqual(ids({ models: ['acme/chat', 'acme/missing-fallback'], provider: { only: ['cheap'] } }), [
    'cheap/acme/chat',
  ])
})
