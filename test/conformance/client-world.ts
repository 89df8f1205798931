// The gateway the client conformance suites talk to over a real socket: one fake OpenAI chat upstream
// serving a priced text model (`test/chat`) and an embedding model (`test/embed`), and an inference key.
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

export interface ClientWorld {
  readonly gateway: TestGateway
  readonly upstream: FakeUpstream
  /** http://127.0.0.1:<port>/api/v1 */
  readonly baseUrl: string
  readonly key: string
  close(): Promise<void>
}

export async function startClientWorld(): Promise<ClientWorld> {
  const upstream = await startFakeUpstream({ api: 'openai-chat', apiKey: 'upstream-secret' })
  const gateway = await startTestGateway({
    yaml: [
      'providers:',
      `  - { slug: fake, name: Fake, api: openai-chat, base_url: "${upstream.url}", api_key: upstream-secret }`,
      'models:',
      '  - slug: test/chat',
      '    endpoints:',
      '      - { provider: fake, upstream_model_id: up-chat, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }',
      '  - slug: test/embed',
      '    kind: embedding',
      '    endpoints:',
      '      - { provider: fake, upstream_model_id: up-embed, pricing: { prompt: "0.0000001", completion: "0" } }',
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
    upstream,
    baseUrl,
    key,
    async close() {
      await gateway.close()
      await upstream.close()
    },
  }
}
