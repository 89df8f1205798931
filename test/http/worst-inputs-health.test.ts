// The worst inputs of issue #35, all at once, while /health is polled over a socket: 30,000 and 100,000
// names to copy, a catastrophic regular expression in an observability filter rule with a long prompt,
// out-of-range offsets, NUL bytes in a path, a query and `user`, and megabyte bodies. Every one is
// answered without a 5xx (a 4xx in the error envelope), and /health keeps answering while they are in
// flight. No clock decides it: a chat request held by the upstream is sent first and released only once
// every hostile request has been answered and /health has answered again after that, so the ordering
// "health answered while a request was in flight" is what is asserted; an input that held the event
// loop would leave the test waiting until its timeout. On SQLite, and on PostgreSQL + Redis when set.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget, redisTarget } from '../support/test-services.ts'
import { createInternVia, mintKey, noRuntime } from '../interns/intern-test-kit.ts'

const huge = '9223372036854775807'
const megabytes = (count: number): string => 'a'.repeat(count * 1024 * 1024)

const yaml = (upstream: string): string =>
  `${noRuntime}egress:\n  allow_private_networks: true\nproviders:\n  - { slug: chatco, api: openai-chat, base_url: "${upstream}" }\n` +
  'models:\n  - slug: test/model\n    endpoints:\n' +
  '      - { provider: chatco, upstream_model_id: m1, max_output_tokens: 100, pricing: { prompt: "0.000001", completion: "0.000002" } }\n'

interface Hostile {
  readonly name: string
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly key: 'admin' | 'inference'
  readonly body?: string
}

function hostileRequests(internId: string): Hostile[] {
  const copy = `/api/v1/vault/interns/${internId}/secrets/copy`
  const chat = (content: string, extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ model: 'test/model', messages: [{ role: 'user', content }], ...extra })
  return [
    {
      name: 'copy 30,000 names',
      method: 'POST',
      path: copy,
      key: 'inference',
      body: JSON.stringify({ names: Array.from({ length: 30_000 }, (_unused, index) => `name_${index}`) }),
    },
    {
      name: 'copy 100,000 names',
      method: 'POST',
      path: copy,
      key: 'inference',
      body: JSON.stringify({ names: Array.from({ length: 100_000 }, () => 'same') }),
    },
    {
      name: 'catastrophic filter rule prompt',
      method: 'POST',
      path: '/api/v1/chat/completions',
      key: 'inference',
      body: chat(`${'a'.repeat(10_000)}!`),
    },
    { name: 'huge offset', method: 'GET', path: `/api/v1/workspaces?offset=${huge}`, key: 'admin' },
    { name: 'huge offset on keys', method: 'GET', path: `/api/v1/keys?offset=${huge}`, key: 'admin' },
    { name: 'NUL in a path', method: 'GET', path: '/api/v1/keys/%00', key: 'admin' },
    { name: 'NUL in a query', method: 'GET', path: '/api/v1/generation?id=gen-%00', key: 'admin' },
    {
      name: 'NUL in user',
      method: 'POST',
      path: '/api/v1/chat/completions',
      key: 'inference',
      body: chat('hi', { user: 'a\u0000b' }),
    },
    {
      name: '8 MB prompt',
      method: 'POST',
      path: '/api/v1/chat/completions',
      key: 'inference',
      body: chat(megabytes(8)),
    },
    {
      name: '8 MB key name',
      method: 'POST',
      path: '/api/v1/keys',
      key: 'admin',
      body: JSON.stringify({ name: megabytes(8) }),
    },
  ]
}

function isEnvelope(status: number, text: string): boolean {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }
    return body.error?.code === status && typeof body.error.message === 'string'
  } catch {
    return false
  }
}

for (const [engine, postgresUrl, redisUrl] of [
  ['sqlite', undefined, undefined],
  ['postgres + redis', postgresTarget().url, redisTarget().url],
] as const) {
  const skip = engine === 'sqlite' ? false : postgresTarget().skip || redisTarget().skip
  describe(`worst inputs at once on ${engine}`, { skip }, () => {
    let upstream: FakeUpstream
    let gateway: TestGateway
    let base: string
    let keys: Record<Hostile['key'], string>
    let internId: string

    before(async () => {
      upstream = await startFakeUpstream({ api: 'openai-chat' })
      gateway = await startTestGateway({
        yaml: yaml(upstream.url),
        ...(postgresUrl === undefined ? {} : { postgresUrl }),
        ...(redisUrl === undefined ? {} : { env: { REDIS_URL: redisUrl }, redisKeyPrefix: 'worst-inputs:' }),
      })
      base = await gateway.listen()
      const workspace = gateway.gateway.bootstrap.defaultWorkspaceId
      keys = { admin: gateway.adminKey, inference: await mintKey(gateway, 'inference', workspace) }
      internId = (await createInternVia(gateway, keys.inference, { name: 'copier' })).id
      const destination = await gateway.inject({
        method: 'POST',
        url: '/api/v1/observability/destinations',
        headers: { authorization: `Bearer ${keys.admin}` },
        payload: {
          name: 'catastrophic',
          type: 'webhook',
          config: { url: `${upstream.url}/hook` },
          filter_rules: { groups: [{ rules: [{ field: 'input', operator: 'regex', value: '^(a+)+$' }] }] },
        },
      })
      assert.equal(destination.statusCode, 201, destination.body)
    })
    after(async () => {
      await gateway?.close()
      await upstream?.close()
    })

    test(`every worst input is answered without a 5xx while /health keeps answering (${engine})`, async () => {
      let release = (): void => undefined
      const hold = new Promise<void>((resolve) => (release = resolve))
      upstream.script({ type: 'completion', text: 'held', holdAfterFrames: 0, hold })
      const send = (method: string, path: string, key: string, body?: string) =>
        fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body }),
        })
      const events: string[] = []
      const held = send(
        'POST',
        '/api/v1/chat/completions',
        keys.inference,
        JSON.stringify({ model: 'test/model', messages: [{ role: 'user', content: 'hold me' }] }),
      ).then(async (response) => {
        events.push('held answered')
        return { status: response.status, text: await response.text() }
      })
      await waitFor(() => upstream.requests.length >= 1)

      let polling = true
      let healthAnswers = 0
      const poll = (async () => {
        while (polling) {
          const response = await fetch(`${base}/health`)
          await response.arrayBuffer()
          assert.equal(response.status, 200)
          healthAnswers++
          events.push('health')
        }
      })()
      const hostile = hostileRequests(internId)
      events.push('hostile sent')
      const answers = await Promise.all(
        hostile.map(async (request) => {
          const response = await send(request.method, request.path, keys[request.key], request.body)
          const text = await response.text()
          events.push(`answered: ${request.name}`)
          return { request, status: response.status, text }
        }),
      )
      const afterHostile = healthAnswers
      await waitFor(() => healthAnswers >= afterHostile + 3)
      assert.ok(!events.includes('held answered'), 'the held request is still in flight')
      release()
      polling = false
      await poll
      const heldAnswer = await held
      assert.equal(heldAnswer.status, 200, heldAnswer.text)

      const findings = answers.flatMap(({ request, status, text }) =>
        status >= 500 || (status >= 400 && !isEnvelope(status, text))
          ? [`${request.name}: ${status} ${text.slice(0, 200)}`]
          : [],
      )
      assert.deepEqual(findings, [])
      const refused = answers.filter(({ status }) => status >= 400).map(({ request }) => request.name)
      assert.deepEqual(
        refused.sort(),
        hostile
          .map((request) => request.name)
          .filter((name) => !['catastrophic filter rule prompt', 'NUL in user', '8 MB prompt'].includes(name))
          .sort(),
        'identifiers, sizes and ranges are refused; free text is answered',
      )
      // Ordering, not time: /health answered after the hostile requests were sent and before the held one ended.
      const sent = events.indexOf('hostile sent')
      const healthDuring = events.slice(sent, events.indexOf('held answered')).filter((event) => event === 'health')
      assert.ok(healthDuring.length >= 3, `events: ${events.filter((event) => event !== 'health').join(', ')}`)
    })
  })
}

async function waitFor(isDone: () => boolean): Promise<void> {
  while (!isDone()) await new Promise((resolve) => setTimeout(resolve, 5))
}
