// What the private endpoint end-to-end tests share: a fake upstream for the private endpoint, a public
// provider's fake upstream serving test/shared, a gateway on a real socket that may reach loopback, and
// a key in the default workspace (`home`) and in a second one (`other`).
import OpenAI from 'openai'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { createWorkspaceKey } from './private-endpoint-kit.ts'

export interface EndpointWorld {
  readonly gateway: TestGateway
  readonly privateUpstream: FakeUpstream
  readonly publicUpstream: FakeUpstream
  /** The gateway's origin on its real socket. */
  readonly base: string
  readonly home: { readonly key: string; readonly workspaceId: string }
  readonly other: { readonly key: string; readonly workspaceId: string }
  /** The official openai client over the gateway's socket, with a key. */
  client(key: string): OpenAI
  close(): Promise<void>
}

export async function startEndpointWorld(): Promise<EndpointWorld> {
  const privateUpstream = await startFakeUpstream({ api: 'openai-chat', apiKey: 'pe-secret' })
  const publicUpstream = await startFakeUpstream({ api: 'openai-chat', apiKey: 'public-secret' })
  const yaml = [
    'egress: { allow_private_networks: true }',
    'providers:',
    `  - { slug: public, name: Public, api: openai-chat, base_url: "${publicUpstream.url}", api_key: public-secret }`,
    'models:',
    '  - slug: test/shared',
    '    endpoints:',
    '      - { provider: public, upstream_model_id: shared-1, pricing: { prompt: "0.00001", completion: "0.00002" } }',
  ].join('\n')
  const gateway = await startTestGateway({ yaml })
  const base = await gateway.listen()
  const home = await createWorkspaceKey(gateway, null)
  const other = await createWorkspaceKey(gateway, 'other-team')
  return {
    gateway,
    privateUpstream,
    publicUpstream,
    base,
    home,
    other,
    client: (key) => new OpenAI({ apiKey: key, baseURL: `${base}/api/v1`, maxRetries: 0 }),
    async close() {
      await gateway.close()
      await privateUpstream.close()
      await publicUpstream.close()
    },
  }
}
