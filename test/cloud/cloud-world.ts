// The cloud-provider end-to-end world: a gateway whose catalog routes one model per cloud setup to a
// fake cloud upstream (real servers speaking each wire protocol), and the official clients pointed at it.
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import type { ScriptedReply } from '../fake-upstreams/scripted-reply.ts'

/** One configured cloud provider and the fake behind it. */
export interface CloudSetup {
  readonly name: string
  /** The provider's YAML entry (one flow mapping), slug = name. */
  readonly providerYaml: string
  readonly upstreamModelId: string
  /** An embeddings deployment, when the provider has embeddings. */
  readonly embeddingsModelId?: string
  readonly script: (...replies: ScriptedReply[]) => void
  readonly requestCount: () => number
  /** The tool names the last request declared to the upstream, read from the provider's wire body. */
  readonly sentToolNames: () => string[]
  readonly close: () => Promise<void>
}

export interface CloudWorld {
  readonly gateway: TestGateway
  readonly openai: () => OpenAI
  readonly anthropic: () => Anthropic
  close(): Promise<void>
}

const price = 'pricing: { prompt: "0.000001", completion: "0.000002" }'

export async function startCloudWorld(
  setups: readonly CloudSetup[],
  extraModels = '',
  extraProviders = '',
): Promise<CloudWorld> {
  const providers = setups.map((setup) => `  - ${setup.providerYaml}`).join('\n') + '\n' + extraProviders
  const models = setups
    .flatMap((setup) => [
      `  - slug: cloud/${setup.name}\n    endpoints:\n      - { provider: ${setup.name}, upstream_model_id: ${setup.upstreamModelId}, max_output_tokens: 1000, ${price} }`,
      ...(setup.embeddingsModelId === undefined
        ? []
        : [
            `  - slug: cloud/${setup.name}-embed\n    kind: embedding\n    endpoints:\n      - { provider: ${setup.name}, upstream_model_id: ${setup.embeddingsModelId}, ${price} }`,
          ]),
    ])
    .join('\n')
  const gateway = await startTestGateway({ yaml: `providers:\n${providers}models:\n${models}\n${extraModels}` })
  const base = await gateway.listen()
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'cloud', limit: 5 },
  })
  assert.equal(created.statusCode, 201, created.body)
  const key = (created.json() as { key: string }).key
  return {
    gateway,
    openai: () => new OpenAI({ apiKey: key, baseURL: `${base}/api/v1`, maxRetries: 0 }),
    anthropic: () => new Anthropic({ apiKey: key, baseURL: `${base}/api`, maxRetries: 0 }),
    close: async () => {
      await gateway.close()
      await Promise.all(setups.map((setup) => setup.close()))
    },
  }
}

/** A chat completion posted with fetch, for tests that read the status, headers and error body. */
export async function postChat(world: CloudWorld, model: string, stream = false): Promise<Response> {
  const client = world.openai()
  return fetch(`${client.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
  })
}
