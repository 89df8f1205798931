// The transport and fallback loop against real fake upstreams speaking each provider's protocol.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { loadConfig } from '../../src/config/load-config.ts'
import { buildCatalog } from '../../src/inference/catalog/build-catalog.ts'
import { planRoute } from '../../src/inference/routing/plan-route.ts'
import { CircuitBreaker } from '../../src/inference/routing/circuit-breaker.ts'
import { EndpointStats } from '../../src/inference/routing/endpoint-stats.ts'
import { StickySessions } from '../../src/inference/routing/sticky-sessions.ts'
import { UpstreamTransport } from '../../src/inference/upstream/upstream-transport.ts'
import { callWithFallbacks, AllAttemptsFailed } from '../../src/inference/upstream/call-with-fallbacks.ts'
import { foldStreamEvents } from '../../src/domain/inference/fold-stream-events.ts'
import type { StreamEvent } from '../../src/domain/inference/stream-event.ts'
import { systemClock } from '../../src/domain/clock.ts'
import type { ProviderApi } from '../../src/domain/inference/provider-api.ts'

const upstreams: FakeUpstream[] = []
const transport = new UpstreamTransport()
after(async () => {
  await transport.close()
  await Promise.all(upstreams.map((upstream) => upstream.close()))
})

async function setup(apis: ProviderApi[]) {
  const started = await Promise.all(apis.map((api) => startFakeUpstream({ api, apiKey: 'upstream-key' })))
  upstreams.push(...started)
  const providers = started
    .map(
      (upstream, index) =>
        `  - { slug: p${index}, api: ${upstream.api}, base_url: "${upstream.url}", api_key: upstream-key, timeout_ms: 5000 }`,
    )
    .join('\n')
  const endpoints = started
    .map(
      (_upstream, index) =>
        `      - { provider: p${index}, upstream_model_id: m${index}, pricing: { prompt: "0.00000${index + 1}", completion: "0.00000${index + 1}" } }`,
    )
    .join('\n')
  const cwd = mkdtempSync(join(tmpdir(), 'switchyard-fallback-'))
  writeFileSync(
    join(cwd, 'switchyard.yaml'),
    `providers:\n${providers}\nmodels:\n  - slug: test/model\n    endpoints:\n${endpoints}\n`,
  )
  const catalog = buildCatalog(loadConfig({ env: {}, cwd }))
  const routing = {
    catalog,
    breaker: new CircuitBreaker(systemClock),
    stats: new EndpointStats(),
    sticky: new StickySessions(systemClock),
  }
  const run = async (stream = false) => {
    const plan = planRoute({ models: ['test/model'], kind: 'text' }, routing)
    return callWithFallbacks(
      {
        candidates: plan.candidates,
        call: { messages: [{ role: 'user', content: 'hello' }], stream, max_output_tokens: 50 },
        signal: new AbortController().signal,
        sessionKey: null,
      },
      { transport, routing, clock: systemClock },
    )
  }
  return { upstreams: started, run }
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const result: StreamEvent[] = []
  for await (const event of events) result.push(event)
  return result
}

for (const api of ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const) {
  test(`${api}: a plain call returns the canonical result, a stream folds to the same text`, async () => {
    const {
      upstreams: [upstream],
      run,
    } = await setup([api])
    upstream!.script({ type: 'completion', text: 'Hello there', usage: { input_tokens: 7, output_tokens: 2 } })
    const plain = await run()
    assert.equal(plain.outcome.kind, 'result')
    if (plain.outcome.kind !== 'result') return
    assert.deepEqual(plain.outcome.result.output, [{ type: 'text', text: 'Hello there' }])
    assert.equal(plain.outcome.result.usage.input_tokens, 7)
    assert.equal((upstream!.requests[0]?.body as { model?: string } | undefined)?.model ?? 'm0', 'm0')
    upstream!.script({ type: 'completion', text: 'Streamed reply', usage: { input_tokens: 3, output_tokens: 4 } })
    const streamed = await run(true)
    assert.equal(streamed.outcome.kind, 'stream')
    if (streamed.outcome.kind !== 'stream') return
    const folded = foldStreamEvents(await collect(streamed.outcome.events))
    assert.deepEqual(folded.output, [{ type: 'text', text: 'Streamed reply' }])
    assert.equal(folded.usage.output_tokens, 4)
  })
}

test('429, 5xx and connection resets fall back to the next endpoint in order, each tried once', async () => {
  const {
    upstreams: [first, second, third],
    run,
  } = await setup(['openai-chat', 'anthropic', 'gemini'])
  first!.script({ type: 'error', status: 429, retryAfterSeconds: 3 })
  second!.script({ type: 'reset' })
  third!.script({ type: 'completion', text: 'third time lucky' })
  const called = await run()
  assert.equal(called.candidate.endpoint.provider.slug, 'p2')
  assert.deepEqual(
    called.attempts.map((attempt) => [attempt.provider, attempt.status]),
    [
      ['p0', 429],
      ['p1', 502],
      ['p2', 200],
    ],
  )
  assert.equal(first!.requests.length, 1)
  assert.equal(second!.requests.length, 1)
})

test('a client error from the upstream surfaces at once without trying others', async () => {
  const {
    upstreams: [first, second],
    run,
  } = await setup(['openai-chat', 'openai-chat'])
  first!.script({ type: 'error', status: 400, message: 'bad tool schema', errorType: 'invalid_request_error' })
  await assert.rejects(
    run(),
    (error: unknown) => error instanceof AllAttemptsFailed && error.status === 400 && error.attempts.length === 1,
  )
  assert.equal(second!.requests.length, 0)
})

test('when every endpoint fails the last failure is reported with every attempt', async () => {
  const {
    upstreams: [first, second],
    run,
  } = await setup(['openai-chat', 'anthropic'])
  first!.script({ type: 'error', status: 500 })
  second!.script({ type: 'error', status: 529, errorType: 'overloaded_error' })
  await assert.rejects(
    run(),
    (error: unknown) => error instanceof AllAttemptsFailed && error.status === 529 && error.attempts.length === 2,
  )
})
