// GET /api/v1/endpoints/health over a real socket, in front of a fake upstream: catalog endpoints are
// listed closed and idle, attempts count toward the five-minute window, failures open the breaker,
// its cooldown makes it half-open, the window empties, and inference keys get 403.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { ManualClock } from '../support/manual-clock.ts'

interface Health {
  provider: string
  model: string
  endpoint_id: string
  circuit_state: string
  requests_5m: number
  error_rate_5m: number | null
  latency_p50_ms: number | null
  latency_p99_ms: number | null
}

describe('GET /api/v1/endpoints/health', () => {
  const clock = new ManualClock('2026-11-27T10:00:00.000Z')
  let upstream: FakeUpstream
  let gateway: TestGateway
  let base: string
  let key: string

  before(async () => {
    upstream = await startFakeUpstream({ api: 'openai-chat' })
    gateway = await startTestGateway({
      clock,
      yaml: `providers:\n  - { slug: chatco, api: openai-chat, base_url: "${upstream.url}" }\nmodels:\n  - slug: test/model\n    endpoints:\n      - { provider: chatco, upstream_model_id: m1, pricing: { prompt: "0.000001", completion: "0.000002" } }\n  - slug: test/idle\n    endpoints:\n      - { provider: chatco, upstream_model_id: m2, pricing: { prompt: "0.000001", completion: "0.000002" } }\n`,
    })
    base = await gateway.listen()
    const created = await fetch(`${base}/api/v1/keys`, {
      method: 'POST',
      headers: { ...bearer(gateway.adminKey), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'health' }),
    })
    key = ((await created.json()) as { key: string }).key
  })
  after(async () => {
    await gateway.close()
    await upstream.close()
  })

  async function health(): Promise<Map<string, Health>> {
    const response = await fetch(`${base}/api/v1/endpoints/health`, { headers: bearer(gateway.adminKey) })
    assert.equal(response.status, 200)
    const { data } = (await response.json()) as { data: Health[] }
    return new Map(data.map((row) => [row.model, row]))
  }

  async function chat(): Promise<number> {
    const response = await fetch(`${base}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test/model', messages: [{ role: 'user', content: 'Hi' }] }),
    })
    await response.arrayBuffer()
    return response.status
  }

  test('idle endpoints are closed with no attempts; attempts and failures are counted; the breaker opens', async () => {
    const idle = (await health()).get('test/idle')
    assert.deepEqual(
      { ...idle, endpoint_id: undefined },
      {
        provider: 'chatco',
        model: 'test/idle',
        endpoint_id: undefined,
        circuit_state: 'closed',
        requests_5m: 0,
        error_rate_5m: null,
        latency_p50_ms: null,
        latency_p99_ms: null,
      },
    )
    upstream.script({ type: 'completion', text: 'Hi' }, { type: 'completion', text: 'Hi' })
    assert.equal(await chat(), 200)
    assert.equal(await chat(), 200)
    const before = upstream.requests.length
    for (let failures = 0; failures < 5; failures++) {
      upstream.script({ type: 'error', status: 500, message: 'boom' })
      assert.notEqual(await chat(), 200)
    }
    const attempts = upstream.requests.length
    const busy = (await health()).get('test/model')!
    assert.equal(busy.circuit_state, 'open')
    assert.equal(busy.requests_5m, attempts)
    assert.equal(busy.error_rate_5m, (attempts - 2) / attempts)
    assert.ok(attempts - before >= 5)
    assert.ok(
      busy.latency_p50_ms !== null && busy.latency_p99_ms !== null && busy.latency_p50_ms <= busy.latency_p99_ms,
    )

    clock.advance(31_000)
    assert.equal((await health()).get('test/model')?.circuit_state, 'half_open')
    clock.advance(5 * 60 * 1000)
    const quiet = (await health()).get('test/model')!
    assert.equal(quiet.requests_5m, 0)
    assert.equal(quiet.error_rate_5m, null)
  })

  test('inference keys get 403; the route is in the OpenAPI document', async () => {
    const refused = await fetch(`${base}/api/v1/endpoints/health`, { headers: bearer(key) })
    assert.equal(refused.status, 403)
    const body = (await refused.json()) as { error: { code: number } }
    assert.equal(body.error.code, 403)
    const document = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as { paths: Record<string, unknown> }
    assert.ok('/api/v1/endpoints/health' in document.paths)
  })
})
