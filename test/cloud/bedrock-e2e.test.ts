// End to end against Amazon Bedrock: every client dialect (no embeddings: Converse has none) through a
// SigV4-signed provider whose fake verifies each signature, and a fallback across provider families:
// Bedrock answers 500, the same model's Azure endpoint serves the request.
import { before, after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { verifySigv4 } from '../fake-upstreams/sigv4-verifier.ts'
import { postChat, startCloudWorld, type CloudSetup, type CloudWorld } from './cloud-world.ts'
import { dialectTests } from './dialects-against-cloud.ts'
import { lastToolNames } from './wire-tool-names.ts'

const credentials = { accessKeyId: 'AKIDGATEWAY', secretAccessKey: 'gateway-secret', sessionToken: 'session-1' }

let bedrock: FakeUpstream
let azure: FakeUpstream
let setup: CloudSetup
let world: CloudWorld

before(async () => {
  bedrock = await startFakeUpstream({
    api: 'bedrock',
    verify: (request) => verifySigv4(request, { ...credentials, region: 'eu-west-3', service: 'bedrock' }),
  })
  azure = await startFakeUpstream({ api: 'azure-openai', apiKey: 'azure-secret' })
  setup = {
    name: 'bedrock',
    providerYaml:
      `{ slug: bedrock, api: bedrock, base_url: "${bedrock.url}", options: { region: eu-west-3, ` +
      `access_key_id: ${credentials.accessKeyId}, secret_access_key: ${credentials.secretAccessKey}, session_token: ${credentials.sessionToken} } }`,
    upstreamModelId: 'anthropic.claude-sonnet-4-20250514-v1:0',
    script: (...replies) => bedrock.script(...replies),
    requestCount: () => bedrock.requests.length,
    sentToolNames: lastToolNames(bedrock, 'bedrock'),
    close: () => bedrock.close(),
  }
  const fallbackModel = `  - slug: cloud/claude-anywhere
    endpoints:
      - { provider: bedrock, upstream_model_id: anthropic.claude-sonnet-4, pricing: { prompt: "0.000001", completion: "0.000002" } }
      - { provider: azure, upstream_model_id: claude-deployment, pricing: { prompt: "0.000002", completion: "0.000004" } }
  - slug: cloud/gpt-anywhere
    endpoints:
      - { provider: azure, upstream_model_id: gpt-deployment, pricing: { prompt: "0.000001", completion: "0.000002" } }
      - { provider: bedrock, upstream_model_id: amazon.nova-pro-v1:0, pricing: { prompt: "0.000002", completion: "0.000004" } }
`
  const azureProvider = `  - { slug: azure, api: azure-openai, base_url: "${azure.url}", api_key: azure-secret }\n`
  const denied: CloudSetup = {
    ...setup,
    name: 'bedrock-denied',
    providerYaml:
      `{ slug: bedrock-denied, api: bedrock, base_url: "${bedrock.url}", options: { region: eu-west-3, ` +
      `access_key_id: ${credentials.accessKeyId}, secret_access_key: rotated-away } }`,
    close: async () => {},
  }
  world = await startCloudWorld([setup, denied], fallbackModel, azureProvider)
})
after(async () => {
  await world.close()
  await azure.close()
})

describe('bedrock, SigV4 with a session token', () =>
  dialectTests(
    () => setup,
    () => world,
    false,
  ))

test('the gateway signs the model id path the way the Bedrock SDK does (double-encoded in the signature)', () => {
  const paths = bedrock.requests.map((request) => request.path)
  assert.ok(paths.includes('/model/anthropic.claude-sonnet-4-20250514-v1%3A0/converse'), paths.join(' '))
  assert.ok(paths.includes('/model/anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream'))
  assert.equal(bedrock.requests[0]?.headers['x-amz-security-token'], credentials.sessionToken)
})

test('fallback across provider families: Bedrock 500, then Azure serves the same request', async () => {
  bedrock.script({ type: 'error', status: 500, message: 'internal failure' })
  azure.script({ type: 'completion', text: 'Served by Azure' })
  const before = azure.requests.length
  const answer = await world
    .openai()
    .chat.completions.create({ model: 'cloud/claude-anywhere', messages: [{ role: 'user', content: 'hi' }] })
  assert.equal(answer.choices[0]?.message.content, 'Served by Azure')
  assert.equal(azure.requests.length, before + 1)
  assert.match(bedrock.requests.at(-1)?.path ?? '', /^\/model\/anthropic\.claude-sonnet-4\/converse$/)
})

test('Bedrock throttling is a 429 with retry-after; validation a 400 naming the upstream message', async () => {
  bedrock.script({ type: 'error', status: 429, message: 'Too many requests' })
  const throttled = await fetchChat(world)
  assert.equal(throttled.status, 429)
  assert.ok(Number(throttled.headers.get('retry-after')) >= 1)
  bedrock.script({ type: 'error', status: 400, message: 'messages: field required' })
  const invalid = await fetchChat(world)
  assert.equal(invalid.status, 400)
  assert.match(await invalid.text(), /messages: field required/)
})

test('fallback across provider families, streamed: Azure 503, then Bedrock streams the answer', async () => {
  azure.script({ type: 'error', status: 503, message: 'The service is busy' })
  bedrock.script({ type: 'completion', text: 'Streamed by Bedrock', chunks: 3 })
  const before = bedrock.requests.length
  let text = ''
  const chunks = await world.openai().chat.completions.create({
    model: 'cloud/gpt-anywhere',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  })
  for await (const chunk of chunks) text += chunk.choices[0]?.delta.content ?? ''
  assert.equal(text, 'Streamed by Bedrock')
  assert.equal(bedrock.requests.length, before + 1)
  assert.equal(bedrock.requests.at(-1)?.path, '/model/amazon.nova-pro-v1%3A0/converse-stream')
  assert.match(azure.requests.at(-1)?.path ?? '', /^\/openai\/v1\/chat\/completions$/)
})

test("a signature Bedrock refuses (AccessDeniedException) is the gateway-credential message, never AWS's text", async () => {
  const before = bedrock.requests.length
  const denied = await postChat(world, 'cloud/bedrock-denied')
  const body = await denied.text()
  assert.equal(denied.status, 502, body)
  assert.match(body, /Bedrock rejected the gateway's credentials \(HTTP 403\)/)
  assert.doesNotMatch(body, /signature/i)
  assert.equal(bedrock.requests.length, before + 1)
})

const fetchChat = (current: CloudWorld): Promise<Response> => postChat(current, 'cloud/bedrock')
