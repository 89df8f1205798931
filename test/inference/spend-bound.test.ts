// Spend is bounded by what was reserved: an upstream that reports more output than `max_tokens` is
// billed no more than each request's reservation, so concurrent requests never spend past a key limit;
// the excess shows on the generation and in the metric. A worst case the limit cannot afford is refused
// with the output tokens requested and how many it affords.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

let gateway: TestGateway
let upstream: FakeUpstream
let embeddingsUpstream: FakeUpstream

before(async () => {
  upstream = await startFakeUpstream({ api: 'openai-chat' })
  embeddingsUpstream = await startFakeUpstream({ api: 'openai-chat' })
  gateway = await startTestGateway({
    yaml:
      `providers:\n  - { slug: chatco, api: openai-chat, base_url: "${upstream.url}" }\n` +
      `  - { slug: embedco, api: openai-chat, base_url: "${embeddingsUpstream.url}" }\n` +
      'models:\n  - slug: test/model\n    endpoints:\n' +
      '      - { provider: chatco, upstream_model_id: m1, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }\n' +
      '  - slug: test/embed\n    kind: embedding\n    endpoints:\n' +
      '      - { provider: embedco, upstream_model_id: e1, pricing: { prompt: "0.000001", completion: "0" } }\n',
  })
})
after(async () => {
  await gateway.close()
  await upstream.close()
  await embeddingsUpstream.close()
})

const admin = () => ({ ...bearer(gateway.adminKey), 'content-type': 'application/json' })

async function keyWithLimit(limit: number): Promise<{ key: string; hash: string }> {
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: admin(),
    payload: { name: `limited ${limit}`, limit },
  })
  assert.equal(created.statusCode, 201, created.body)
  const body = created.json() as { key: string; data: { hash: string } }
  return { key: body.key, hash: body.data.hash }
}

function chat(key: string, maxTokens: number, stream: boolean) {
  return gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: { model: 'test/model', messages: [{ role: 'user', content: 'hi' }], max_tokens: maxTokens, stream },
  })
}

/** The usage cost in the last SSE frame that carries one. */
function streamedCost(body: string): number {
  const costs = body
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => (JSON.parse(line.slice(6)) as { usage?: { cost?: number } }).usage?.cost)
    .filter((cost): cost is number => cost !== undefined)
  return costs.at(-1) ?? assert.fail(`no usage cost in ${body}`)
}

test('40 concurrent streams reporting 50 output tokens for max_tokens 16 settle within a $0.001 key limit', async () => {
  const limit = 0.001
  const { key, hash } = await keyWithLimit(limit)
  const requests = 40
  upstream.script(
    ...Array.from({ length: requests }, () => ({
      type: 'completion' as const,
      text: 'far more than sixteen tokens',
      usage: { input_tokens: 10, output_tokens: 50 },
    })),
  )
  const answers = await Promise.all(Array.from({ length: requests }, () => chat(key, 16, true)))
  const answered = answers.filter((answer) => answer.statusCode === 200)
  assert.ok(answered.length >= 5, `${answered.length} streams were admitted`)
  for (const answer of answers) assert.ok([200, 402].includes(answer.statusCode), answer.body)

  const usage = (
    (await gateway.inject({ method: 'GET', url: `/api/v1/keys/${hash}`, headers: admin() })).json() as {
      data: { usage: number }
    }
  ).data.usage
  // Priced as reported, each stream costs $0.00011 (10 * 0.000001 + 50 * 0.000002); billed, its reservation.
  assert.ok(usage <= limit, `the key spent $${usage} on a $${limit} limit`)

  const generationId = answered[0]!.headers['x-generation-id'] as string
  const generation = (
    (
      await gateway.inject({ method: 'GET', url: `/api/v1/generation?id=${generationId}`, headers: admin() })
    ).json() as {
      data: { total_cost: number; unbilled_excess_cost: number; tokens_completion: number }
    }
  ).data
  assert.equal(generation.tokens_completion, 50)
  assert.ok(generation.total_cost < 0.00011, `billed $${generation.total_cost}`)
  assert.ok(generation.unbilled_excess_cost > 0)
  assert.ok(Math.abs(generation.total_cost + generation.unbilled_excess_cost - 0.00011) < 1e-12)
  assert.equal(streamedCost(answered[0]!.body), generation.total_cost, 'the stream reports the cost billed')

  const metrics = (await gateway.inject({ method: 'GET', url: '/metrics' })).body
  const excess = /^switchyard_unbilled_excess_usd_total (\S+)$/m.exec(metrics)
  assert.ok(excess !== null && Number(excess[1]) > 0, 'the unbilled excess is counted')
})

test('a refused worst case says how many output tokens the remaining limit affords, and that many are admitted', async () => {
  const { key } = await keyWithLimit(0.00005)
  const refused = await chat(key, 1000, false)
  assert.equal(refused.statusCode, 402, refused.body)
  const error = (refused.json() as { error: { message: string; metadata: Record<string, unknown> } }).error
  const affordable = error.metadata.affordable_output_tokens
  assert.equal(typeof affordable, 'number')
  assert.ok((affordable as number) > 0 && (affordable as number) < 1000, `affords ${String(affordable)}`)
  assert.equal(error.metadata.requested_output_tokens, 1000)
  assert.equal(error.metadata.limit_source, 'key_limit')
  assert.match(
    error.message,
    new RegExp(
      `^This request requires more credits, or fewer max_tokens\\. You requested up to 1000 tokens, but can only afford ${String(affordable)}\\. Key limit of \\$0\\.00005`,
    ),
  )

  assert.equal((await chat(key, (affordable as number) + 1, false)).statusCode, 402, 'one more token is refused')
  upstream.script({ type: 'completion', text: 'ok', usage: { input_tokens: 1, output_tokens: 1 } })
  const admitted = await chat(key, affordable as number, false)
  assert.equal(admitted.statusCode, 200, admitted.body)
})

test('an embeddings upstream that reports more tokens than were reserved is billed the reservation, and answers that cost', async () => {
  const { key, hash } = await keyWithLimit(1)
  // "hello" reserves 5 tokens (one per UTF-8 byte) at $0.000001: $0.000005. The upstream reports 50.
  embeddingsUpstream.script({ type: 'embeddings', promptTokens: 50 })
  const answer = await gateway.inject({
    method: 'POST',
    url: '/api/v1/embeddings',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: { model: 'test/embed', input: 'hello' },
  })
  assert.equal(answer.statusCode, 200, answer.body)
  const usage = (answer.json() as { usage: { prompt_tokens: number; cost: number } }).usage
  assert.equal(usage.prompt_tokens, 50)
  assert.equal(usage.cost, 0.000005, 'the answer shows the cost billed, not the $0.00005 priced')
  const generation = (
    (
      await gateway.inject({
        method: 'GET',
        url: `/api/v1/generation?id=${answer.headers['x-generation-id'] as string}`,
        headers: admin(),
      })
    ).json() as { data: { total_cost: number; unbilled_excess_cost: number } }
  ).data
  assert.equal(generation.total_cost, 0.000005)
  assert.ok(Math.abs(generation.unbilled_excess_cost - 0.000045) < 1e-12, `excess ${generation.unbilled_excess_cost}`)
  const keyUsage = (
    (await gateway.inject({ method: 'GET', url: `/api/v1/keys/${hash}`, headers: admin() })).json() as {
      data: { usage: number }
    }
  ).data.usage
  assert.equal(keyUsage, 0.000005)
})
