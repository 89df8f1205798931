// A gateway in front of one fake OpenAI upstream (chat models test/model and test/other, embedding
// model test/embed) with a manual clock, on the memory response cache or on Redis, and the helpers the
// response-cache tests share: minting keys, posting over a real socket, reading generation records.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway, type TestGatewayOptions } from '../support/test-gateway.ts'
import { ManualClock } from '../support/manual-clock.ts'

export const cacheYaml = (upstream: FakeUpstream, extra = ''): string => `providers:
  - { slug: chatco, api: openai-chat, base_url: "${upstream.url}" }
models:
  - slug: test/model
    endpoints:
      - { provider: chatco, upstream_model_id: m1, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }
  - slug: test/other
    endpoints:
      - { provider: chatco, upstream_model_id: m2, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }
  - slug: test/embed
    kind: embedding
    endpoints:
      - { provider: chatco, upstream_model_id: e1, pricing: { prompt: "0.0000001", completion: "0" } }
${extra}`

export interface CacheWorld {
  readonly upstream: FakeUpstream
  readonly gateway: TestGateway
  readonly clock: ManualClock
  readonly base: string
  mintKey(name: string): Promise<{ key: string; hash: string }>
  post(path: string, key: string, body: unknown, headers?: Record<string, string>): Promise<Answer>
  /** GET /api/v1/generation?id= as the admin sees it. */
  generation(id: string): Promise<Record<string, unknown>>
  admin(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown): Promise<{ status: number; json: unknown }>
  close(): Promise<void>
}

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  json(): Record<string, unknown>
}

export async function startCacheWorld(
  store: { readonly redisUrl?: string; readonly redisKeyPrefix?: string },
  options: Pick<TestGatewayOptions, 'databaseUrl' | 'postgresUrl'> & { upstream?: FakeUpstream; yaml?: string } = {},
): Promise<CacheWorld> {
  const ownsUpstream = options.upstream === undefined
  const upstream = options.upstream ?? (await startFakeUpstream({ api: 'openai-chat' }))
  const clock = new ManualClock('2026-11-27T10:00:00Z')
  const gateway = await startTestGateway({
    yaml: cacheYaml(upstream, options.yaml),
    clock,
    ...(store.redisUrl === undefined ? {} : { env: { REDIS_URL: store.redisUrl } }),
    ...(store.redisKeyPrefix === undefined ? {} : { redisKeyPrefix: store.redisKeyPrefix }),
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
    ...(options.postgresUrl === undefined ? {} : { postgresUrl: options.postgresUrl }),
  })
  const base = await gateway.listen()
  const admin = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => {
    const response = await gateway.inject({
      method,
      url,
      headers: bearer(gateway.adminKey),
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: response.statusCode, json: response.json() as unknown }
  }
  return {
    upstream,
    gateway,
    clock,
    base,
    admin,
    async mintKey(name) {
      const created = await admin('POST', '/api/v1/keys', { name })
      assert.equal(created.status, 201)
      const json = created.json as { key: string; data: { hash: string } }
      return { key: json.key, hash: json.data.hash }
    },
    async post(path, key, body, headers = {}) {
      const response = await fetch(`${base}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
      const text = await response.text()
      return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) }
    },
    async generation(id) {
      const found = await admin('GET', `/api/v1/generation?id=${id}`)
      assert.equal(found.status, 200, JSON.stringify(found.json))
      return (found.json as { data: Record<string, unknown> }).data
    },
    async close() {
      await gateway.close()
      if (ownsUpstream) await upstream.close()
    },
  }
}

export function redisPrefix(): string {
  return `{switchyard-test:cache:${randomUUID()}}:`
}

export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 })
  try {
    const keys = await client.keys(`${prefix}*`)
    if (keys.length > 0) await client.del(...keys)
  } finally {
    await client.quit()
  }
}

/** The `data:` payloads of an SSE text, in order. */
export function sseData(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length))
}

export const cacheOn = { 'x-openrouter-cache': 'true' }
