// End to end against Azure OpenAI: every client dialect through a deployment-URL provider (Chat
// Completions wire, api-key) and a v1-URL provider (Responses wire), embeddings at the deployment URL.
import { before, after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { azureOpenAiDialect } from '../fake-upstreams/azure-openai-dialect.ts'
import { postChat, startCloudWorld, type CloudSetup, type CloudWorld } from './cloud-world.ts'
import { dialectTests } from './dialects-against-cloud.ts'
import { lastToolNames } from './wire-tool-names.ts'

function azureSetup(
  name: string,
  upstream: FakeUpstream,
  options: string,
  embeddings: boolean,
  wire: 'openai-chat' | 'openai-responses',
  apiKey = 'azure-secret',
): CloudSetup {
  return {
    name,
    providerYaml: `{ slug: ${name}, api: azure-openai, base_url: "${upstream.url}", api_key: ${apiKey}, options: ${options} }`,
    upstreamModelId: `${name}-deployment`,
    ...(embeddings ? { embeddingsModelId: `${name}-embeddings` } : {}),
    script: (...replies) => upstream.script(...replies),
    requestCount: () => upstream.requests.length,
    sentToolNames: lastToolNames(upstream, wire),
    close: () => upstream.close(),
  }
}

let chatUpstream: FakeUpstream
let chat: CloudSetup
let responses: CloudSetup
let world: CloudWorld

before(async () => {
  chatUpstream = await startFakeUpstream({ api: 'azure-openai', apiKey: 'azure-secret' })
  chat = azureSetup('azure-chat', chatUpstream, '{ api_version: "2024-10-21" }', true, 'openai-chat')
  responses = azureSetup(
    'azure-responses',
    await startFakeUpstream({ api: 'azure-openai', apiKey: 'azure-secret', dialect: azureOpenAiDialect('responses') }),
    '{ wire: responses }',
    false,
    'openai-responses',
  )
  const denied = {
    ...azureSetup('azure-denied', chatUpstream, '{ api_version: "2024-10-21" }', false, 'openai-chat', 'stale-key'),
    close: async () => {},
  }
  world = await startCloudWorld([chat, responses, denied])
})
after(() => world.close())

describe('azure-openai, deployment URLs, chat wire', () =>
  dialectTests(
    () => chat,
    () => world,
    true,
  ))
describe('azure-openai, v1 URLs, responses wire', () =>
  dialectTests(
    () => responses,
    () => world,
    false,
  ))

test('Azure throttling is a 429 with its retry-after; a content-filter refusal a 400 naming the upstream message', async () => {
  chatUpstream.script({
    type: 'error',
    status: 429,
    errorType: '429',
    message: 'Rate limit reached',
    retryAfterSeconds: 7,
  })
  const throttled = await postChat(world, 'cloud/azure-chat')
  assert.equal(throttled.status, 429, await throttled.clone().text())
  assert.equal(throttled.headers.get('retry-after'), '7')
  chatUpstream.script({ type: 'error', status: 400, errorType: 'content_filter', message: 'The prompt was filtered' })
  const filtered = await postChat(world, 'cloud/azure-chat', true)
  assert.equal(filtered.status, 400)
  assert.match(await filtered.text(), /Azure OpenAI: The prompt was filtered/)
})

test("a key Azure refuses is the gateway-credential message, never the upstream's text", async () => {
  const before = chatUpstream.requests.length
  const denied = await postChat(world, 'cloud/azure-denied')
  const body = await denied.text()
  assert.equal(denied.status, 502, body)
  assert.match(body, /Azure OpenAI rejected the gateway's credentials \(HTTP 401\)/)
  assert.doesNotMatch(body, /Invalid API key/)
  assert.equal(chatUpstream.requests.length, before + 1)
  assert.equal(chatUpstream.requests.at(-1)?.headers['api-key'], 'stale-key')
})
