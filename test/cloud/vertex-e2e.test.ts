// End to end against Google Vertex AI: every client dialect through a Gemini model and embeddings
// (service-account key file whose token_uri is the fake token endpoint) and a Claude model (the key inline, options.token_url)
// at one fake Vertex that accepts only the tokens the fake endpoint issued for a JWT it verified. Tokens
// are reused, refreshed once they are within 5 minutes of expiry; a key the token endpoint refuses is a
// clear error naming the provider; a Vertex 500 falls back to another provider family.
import { before, after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import {
  makeServiceAccount,
  startFakeTokenEndpoint,
  type FakeTokenEndpoint,
} from '../fake-upstreams/google-token-endpoint.ts'
import { startCloudWorld, type CloudSetup, type CloudWorld } from './cloud-world.ts'
import { dialectTests } from './dialects-against-cloud.ts'
import { lastToolNames } from './wire-tool-names.ts'

const account = makeServiceAccount('gateway')
// The gateway's account name with another key: its JWT signature cannot verify (Google answers 401).
const impostor = makeServiceAccount('gateway')
const price = 'pricing: { prompt: "0.000001", completion: "0.000002" }'

let tokens: FakeTokenEndpoint
let vertex: FakeUpstream
let anthropic: FakeUpstream
let gemini: CloudSetup
let claude: CloudSetup
let world: CloudWorld

/** A YAML single-quoted scalar (the inline key is JSON, full of double quotes and \n escapes). */
const quoted = (text: string): string => `'${text.replaceAll("'", "''")}'`

function vertexSetup(
  name: string,
  upstreamModelId: string,
  credentials: string,
  closes: boolean,
  embeddingsModelId?: string,
): CloudSetup {
  return {
    name,
    ...(embeddingsModelId === undefined ? {} : { embeddingsModelId }),
    providerYaml: `{ slug: ${name}, api: vertex, base_url: "${vertex.origin}", options: { project: fake-project, location: us-east5, ${credentials} } }`,
    upstreamModelId,
    script: (...replies) => vertex.script(...replies),
    requestCount: () => vertex.requests.length,
    sentToolNames: lastToolNames(vertex, upstreamModelId.startsWith('claude') ? 'anthropic' : 'gemini'),
    close: async () => (closes ? vertex.close() : undefined),
  }
}

before(async () => {
  tokens = await startFakeTokenEndpoint([account])
  vertex = await startFakeUpstream({
    api: 'vertex',
    verify: async (request) => tokens.accepts(request.headers.authorization),
  })
  anthropic = await startFakeUpstream({ api: 'anthropic', apiKey: 'anthropic-secret' })
  const keyFile = join(mkdtempSync(join(tmpdir(), 'switchyard-vertex-')), 'sa.json')
  writeFileSync(keyFile, JSON.stringify({ ...account.json, token_uri: tokens.url }))
  const inlineKey = `credentials_json: ${quoted(JSON.stringify(account.json))}, token_url: "${tokens.url}"`
  gemini = vertexSetup('vertex-gemini', 'gemini-2.5-pro', `credentials_file: "${keyFile}"`, true, 'text-embedding-005')
  claude = vertexSetup('vertex-claude', 'claude-sonnet-4@20250514', inlineKey, false)
  const refresh = vertexSetup('vertex-refresh', 'gemini-2.5-flash', `credentials_file: "${keyFile}"`, false)
  const refused = vertexSetup(
    'vertex-refused',
    'gemini-2.5-flash',
    `credentials_json: ${quoted(JSON.stringify(impostor.json))}, token_url: "${tokens.url}"`,
    false,
  )
  const extraModels = `  - slug: cloud/gemini-anywhere
    endpoints:
      - { provider: vertex-gemini, upstream_model_id: gemini-2.5-pro, ${price} }
      - { provider: anthropic-direct, upstream_model_id: claude-sonnet-4-20250514, pricing: { prompt: "0.000002", completion: "0.000004" } }
`
  const extraProviders = `  - { slug: anthropic-direct, api: anthropic, base_url: "${anthropic.url}", api_key: anthropic-secret }\n`
  // A static access token (api_key) that Google never issued: Vertex answers 403 PERMISSION_DENIED.
  const revoked = {
    ...vertexSetup('vertex-revoked', 'gemini-2.5-flash', 'token_url: "unused"', false),
    providerYaml: `{ slug: vertex-revoked, api: vertex, base_url: "${vertex.origin}", api_key: ya29.revoked, options: { project: fake-project, location: us-east5 } }`,
  }
  world = await startCloudWorld([gemini, claude, refresh, refused, revoked], extraModels, extraProviders)
})
after(async () => {
  await world.close()
  await Promise.all([anthropic.close(), tokens.close()])
})

describe('vertex, Gemini on Google publisher paths, key file; embeddings through :predict', () =>
  dialectTests(
    () => gemini,
    () => world,
    true,
  ))
describe('vertex, Claude on rawPredict, inline key', () =>
  dialectTests(
    () => claude,
    () => world,
    false,
  ))

test('the gateway sends Vertex paths and bodies: Gemini generateContent, Claude rawPredict without a model', () => {
  const paths = vertex.requests.map((request) => request.path)
  const base = '/v1/projects/fake-project/locations/us-east5/publishers'
  assert.ok(paths.includes(`${base}/google/models/gemini-2.5-pro:generateContent`), paths.join(' '))
  assert.ok(paths.includes(`${base}/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse`))
  assert.ok(paths.includes(`${base}/anthropic/models/claude-sonnet-4@20250514:rawPredict`))
  assert.ok(paths.includes(`${base}/anthropic/models/claude-sonnet-4@20250514:streamRawPredict`))
  const claudeBody = vertex.requests.find((request) => request.path.endsWith(':rawPredict'))?.body
  assert.equal((claudeBody as { anthropic_version?: string }).anthropic_version, 'vertex-2023-10-16')
  assert.equal((claudeBody as { model?: string }).model, undefined)
})

test('each provider exchanged one JWT for a token and reused it for every request', () => {
  assert.equal(tokens.exchanges.length, 2, tokens.refusals.join('; '))
  assert.ok(tokens.exchanges.every((exchange) => exchange.clientEmail === account.clientEmail))
  const audiences = tokens.exchanges.map((exchange) => exchange.claims.aud)
  assert.deepEqual(audiences, [tokens.url, tokens.url])
})

async function ask(model: string): Promise<Response> {
  const client = world.openai()
  return fetch(`${client.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  })
}

test('a token within 5 minutes of expiry is exchanged again before the request; a fresh one is kept', async () => {
  tokens.expiresIn = 300
  try {
    const before = tokens.exchanges.length
    for (let i = 0; i < 2; i++) {
      const answer = await ask('cloud/vertex-refresh')
      assert.equal(answer.status, 200, await answer.text())
      assert.equal(tokens.exchanges.length, before + i + 1)
      assert.equal(vertex.requests.at(-1)?.headers.authorization, `Bearer ${tokens.exchanges.at(-1)?.token}`)
    }
    tokens.expiresIn = 3600
    for (let i = 0; i < 2; i++) assert.equal((await ask('cloud/vertex-refresh')).status, 200)
    assert.equal(tokens.exchanges.length, before + 3)
  } finally {
    tokens.expiresIn = 3600
  }
})

test('a key the token endpoint refuses (401) is an error naming the provider and the reason; Vertex is not called', async () => {
  const calls = vertex.requests.length
  const answer = await ask('cloud/vertex-refused')
  const body = await answer.text()
  assert.equal(answer.status, 502, body)
  assert.match(body, /Provider vertex-refused: could not obtain credentials \(Vertex AI service account gateway@/)
  assert.match(body, /HTTP 401 \(invalid_grant: Invalid JWT Signature\.\)/)
  assert.equal(vertex.requests.length, calls)
})

test('fallback across provider families: Vertex 500, then Anthropic serves the same request', async () => {
  vertex.script({ type: 'error', status: 500, message: 'Internal error encountered.' })
  anthropic.script({ type: 'completion', text: 'Served by Anthropic' })
  const answer = await world
    .openai()
    .chat.completions.create({ model: 'cloud/gemini-anywhere', messages: [{ role: 'user', content: 'hi' }] })
  assert.equal(answer.choices[0]?.message.content, 'Served by Anthropic')
  assert.match(vertex.requests.at(-1)?.path ?? '', /gemini-2\.5-pro:generateContent$/)
})

test('Vertex quota exhaustion is a 429 with retry-after; INVALID_ARGUMENT a 400 with its message', async () => {
  vertex.script({ type: 'error', status: 429, message: 'Quota exceeded', errorType: 'RESOURCE_EXHAUSTED' })
  const throttled = await ask('cloud/vertex-gemini')
  assert.equal(throttled.status, 429)
  assert.ok(Number(throttled.headers.get('retry-after')) >= 1)
  vertex.script({ type: 'error', status: 400, message: 'contents: required', errorType: 'INVALID_ARGUMENT' })
  const invalid = await ask('cloud/vertex-claude')
  assert.equal(invalid.status, 400)
  assert.match(await invalid.text(), /Vertex AI: contents: required/)
})

test("an access token Vertex refuses is the gateway-credential message, never Google's text", async () => {
  const calls = vertex.requests.length
  const answer = await ask('cloud/vertex-revoked')
  const body = await answer.text()
  assert.equal(answer.status, 502, body)
  assert.match(body, /Vertex AI rejected the gateway's credentials \(HTTP 403\)/)
  assert.doesNotMatch(body, /signature/i)
  assert.equal(vertex.requests.length, calls + 1)
  assert.equal(vertex.requests.at(-1)?.headers.authorization, 'Bearer ya29.revoked')
})
