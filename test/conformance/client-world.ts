// The gateway the client conformance suites talk to over a real socket. One fake upstream per upstream API
// the sweep routes to (openai-chat, openai-responses, anthropic, gemini), each serving a priced text model
// `test/chat-<api>`; `test/chat` (the openai-chat one) and the embedding model `test/embed` are the
// defaults. An inference key, and the management key for the management calls.
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

/** The upstream APIs every inference call of a client is swept across. */
export const upstreamApis = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const
export type UpstreamApi = (typeof upstreamApis)[number]

/** The model slug served by the fake upstream of `api`. */
export const chatModel = (api: UpstreamApi): string => `test/chat-${api}`

export interface ClientWorld {
  readonly gateway: TestGateway
  /** The openai-chat upstream (`test/chat`, `test/embed`). */
  readonly upstream: FakeUpstream
  readonly upstreams: Readonly<Record<UpstreamApi, FakeUpstream>>
  /** http://127.0.0.1:<port>/api/v1 */
  readonly baseUrl: string
  /** An inference key. */
  readonly key: string
  /** The management key. */
  readonly adminKey: string
  close(): Promise<void>
}

const pricing = 'pricing: { prompt: "0.000001", completion: "0.000002" }'

export async function startClientWorld(): Promise<ClientWorld> {
  const started = await Promise.all(
    upstreamApis.map((api) => startFakeUpstream({ api, apiKey: `upstream-secret-${api}` })),
  )
  const upstreams = Object.fromEntries(upstreamApis.map((api, index) => [api, started[index]!])) as Record<
    UpstreamApi,
    FakeUpstream
  >
  const gateway = await startTestGateway({
    yaml: [
      'providers:',
      ...upstreamApis.map(
        (api) =>
          `  - { slug: fake-${api}, name: Fake ${api}, api: ${api}, base_url: "${upstreams[api].url}", api_key: upstream-secret-${api} }`,
      ),
      'models:',
      '  - slug: test/chat',
      '    endpoints:',
      `      - { provider: fake-openai-chat, upstream_model_id: up-chat, max_output_tokens: 1000, ${pricing} }`,
      ...upstreamApis.flatMap((api) => [
        `  - slug: ${chatModel(api)}`,
        '    endpoints:',
        `      - { provider: fake-${api}, upstream_model_id: up-${api}, max_output_tokens: 1000, ${pricing} }`,
      ]),
      '  - slug: test/embed',
      '    kind: embedding',
      '    endpoints:',
      '      - { provider: fake-openai-chat, upstream_model_id: up-embed, pricing: { prompt: "0.0000001", completion: "0" } }',
      '',
    ].join('\n'),
  })
  const baseUrl = `${await gateway.listen()}/api/v1`
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'client conformance' },
  })
  assert.equal(created.statusCode, 201, created.body)
  const key = (created.json() as { key: string }).key
  return {
    gateway,
    upstream: upstreams['openai-chat'],
    upstreams,
    baseUrl,
    key,
    adminKey: gateway.adminKey,
    async close() {
      await gateway.close()
      await Promise.all(started.map((upstream) => upstream.close()))
    },
  }
}
