import { test } from 'node:test'
import assert from 'node:assert/strict'
import { generateKeyPairSync, verify } from 'node:crypto'
import type { AuthorizerDeps } from '../provider-adapter.ts'
import { adapterFor } from '../registry.ts'
import { createVertexAuthorizer } from './authorizer.ts'
import { vertexEmbeddings } from './embeddings.ts'
import { vertexBaseUrl, vertexLocation } from './urls.ts'

const settings = (options: Record<string, string>, baseUrl = 'https://us-east5-aiplatform.googleapis.com') => ({
  slug: 'vertex',
  apiKey: null,
  baseUrl,
  options,
})
const call = (model: string, stream: boolean) => ({
  model,
  stream,
  max_output_tokens: 50,
  messages: [{ role: 'user' as const, content: 'hi' }],
})

test('Gemini models go to Google publisher paths, Claude models to rawPredict with the Vertex version in the body', () => {
  const vertex = settings({ project: 'my-proj' })
  const gemini = adapterFor('vertex', 'gemini-2.5-pro', vertex)
  assert.equal(
    gemini.buildRequest(call('gemini-2.5-pro', false), vertex).path,
    '/v1/projects/my-proj/locations/us-east5/publishers/google/models/gemini-2.5-pro:generateContent',
  )
  assert.equal(
    gemini.buildRequest(call('gemini-2.5-pro', true), vertex).path,
    '/v1/projects/my-proj/locations/us-east5/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
  )
  const claude = adapterFor('vertex', 'claude-sonnet-4@20250514', vertex)
  const streamed = claude.buildRequest(call('claude-sonnet-4@20250514', true), vertex)
  assert.equal(
    streamed.path,
    '/v1/projects/my-proj/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict',
  )
  assert.equal(streamed.body.anthropic_version, 'vertex-2023-10-16')
  assert.equal(streamed.body.model, undefined)
  assert.equal(streamed.body.stream, true)
  assert.equal(streamed.headers['anthropic-version'], undefined)
  const plain = claude.buildRequest(call('publishers/anthropic/models/claude-opus-4-1', false), vertex)
  assert.match(plain.path, /\/publishers\/anthropic\/models\/claude-opus-4-1:rawPredict$/)
})

test('the location comes from options or the endpoint host; the project is required', () => {
  assert.equal(vertexLocation(settings({}, 'https://europe-west4-aiplatform.googleapis.com')), 'europe-west4')
  assert.equal(vertexLocation(settings({}, 'https://aiplatform.googleapis.com')), 'global')
  assert.equal(vertexLocation(settings({}, 'https://aiplatform.eu.rep.googleapis.com')), 'eu')
  assert.equal(vertexLocation(settings({ location: 'asia-east1' }, 'http://127.0.0.1:9')), 'asia-east1')
  assert.throws(() => vertexLocation(settings({}, 'http://127.0.0.1:9')), /set options\.location/)
  assert.equal(vertexBaseUrl('global'), 'https://aiplatform.googleapis.com')
  assert.equal(vertexBaseUrl('us-central1'), 'https://us-central1-aiplatform.googleapis.com')
  const noProject = settings({})
  assert.throws(
    () => adapterFor('vertex', 'gemini-2.5-pro', noProject).buildRequest(call('gemini-2.5-pro', false), noProject),
    /Vertex AI provider vertex: set options\.project/,
  )
})

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const serviceAccount = {
  type: 'service_account',
  project_id: 'my-proj',
  private_key_id: 'kid-1',
  private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  client_email: 'gw@my-proj.iam.gserviceaccount.com',
}

/** A token endpoint in memory that checks each JWT's signature and claims, answering tokens of `expiresIn` s. */
function tokenEndpoint(clock: { now: number }, expiresIn = 3600) {
  const posts: { url: string; claims: Record<string, unknown>; header: Record<string, unknown> }[] = []
  let release: (() => void) | undefined
  const deps: AuthorizerDeps = {
    now: () => clock.now,
    readFile: async (path) => {
      if (path !== '/keys/sa.json') throw new Error('ENOENT: no such file')
      return JSON.stringify(serviceAccount)
    },
    post: async (url, headers, body) => {
      assert.equal(headers['content-type'], 'application/x-www-form-urlencoded')
      const form = new URLSearchParams(body)
      assert.equal(form.get('grant_type'), 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      const [head, claims, signature] = (form.get('assertion') ?? '').split('.') as [string, string, string]
      const valid = verify(
        'RSA-SHA256',
        Buffer.from(`${head}.${claims}`),
        publicKey,
        Buffer.from(signature, 'base64url'),
      )
      if (!valid) return { status: 401, body: '{"error":"invalid_grant","error_description":"Invalid JWT Signature."}' }
      const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>
      posts.push({ url, header: decode(head), claims: decode(claims) })
      if (release === undefined) await new Promise<void>((resolve) => (release = resolve))
      return { status: 200, body: JSON.stringify({ access_token: `ya29.t${posts.length}`, expires_in: expiresIn }) }
    },
  }
  return {
    deps,
    posts,
    open: () => {
      const pending = release
      release = () => undefined
      pending?.()
    },
  }
}

const request = { url: new URL('https://us-east5-aiplatform.googleapis.com/v1/x'), headers: {}, body: '{}' }

test('a service account key file: one signed JWT exchange shared by concurrent requests, refreshed 5 min before expiry', async () => {
  const clock = { now: 1_700_000_000_000 }
  const endpoint = tokenEndpoint(clock)
  const authorizer = createVertexAuthorizer(settings({ credentials_file: '/keys/sa.json' }), endpoint.deps)
  const concurrent = Promise.all([authorizer.authorize!(request), authorizer.authorize!(request)])
  await new Promise((resolve) => setImmediate(resolve))
  endpoint.open()
  assert.deepEqual(await concurrent, [{ authorization: 'Bearer ya29.t1' }, { authorization: 'Bearer ya29.t1' }])
  assert.equal(endpoint.posts.length, 1)
  const [{ url, header, claims }] = endpoint.posts as [(typeof endpoint.posts)[number]]
  assert.equal(url, 'https://oauth2.googleapis.com/token')
  assert.deepEqual(header, { alg: 'RS256', typ: 'JWT', kid: 'kid-1' })
  assert.deepEqual(claims, {
    iss: serviceAccount.client_email,
    scope: 'https://www.googleapis.com/auth/cloud-platform',
    aud: 'https://oauth2.googleapis.com/token',
    iat: 1_700_000_000,
    exp: 1_700_003_600,
  })
  clock.now += 3600_000 - 5 * 60_000 - 1
  assert.deepEqual(await authorizer.authorize!(request), { authorization: 'Bearer ya29.t1' })
  clock.now += 1
  assert.deepEqual(await authorizer.authorize!(request), { authorization: 'Bearer ya29.t2' })
  assert.equal(endpoint.posts[1]?.claims.iat, 1_700_003_300)
})

test('inline credentials with options.token_url; a refused exchange names the account', async () => {
  const clock = { now: 0 }
  const endpoint = tokenEndpoint(clock)
  endpoint.open()
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
  const forged = { ...serviceAccount, private_key: other.export({ type: 'pkcs8', format: 'pem' }).toString() }
  const refused = createVertexAuthorizer(
    settings({ credentials_json: JSON.stringify(forged), token_url: 'http://127.0.0.1:1/token' }),
    endpoint.deps,
  )
  await assert.rejects(
    refused.authorize!(request),
    /Vertex AI service account gw@my-proj\.iam\.gserviceaccount\.com: the token endpoint answered HTTP 401 \(invalid_grant: Invalid JWT Signature\.\)/,
  )
  const inline = createVertexAuthorizer(
    settings({ credentials_json: JSON.stringify(serviceAccount), token_url: 'http://127.0.0.1:1/token' }),
    endpoint.deps,
  )
  assert.deepEqual(await inline.authorize!(request), { authorization: 'Bearer ya29.t1' })
  assert.equal(endpoint.posts[0]?.claims.aud, 'http://127.0.0.1:1/token')
})

test('credentials that cannot be read or used fail with the reason, never the key; a static token is a header', async () => {
  const endpoint = tokenEndpoint({ now: 0 })
  const missing = createVertexAuthorizer(settings({ credentials_file: '/nope.json' }), endpoint.deps)
  await assert.rejects(missing.authorize!(request), /cannot read the Google credentials file \/nope\.json: ENOENT/)
  const notJson = createVertexAuthorizer(settings({ credentials_json: '{"type":"service_account"' }), endpoint.deps)
  await assert.rejects(notJson.authorize!(request), /not a JSON object/)
  const external = createVertexAuthorizer(settings({ credentials_json: '{"type":"external_account"}' }), endpoint.deps)
  await assert.rejects(external.authorize!(request), /"external_account" are not supported/)
  const noEmail = createVertexAuthorizer(
    settings({ credentials_json: JSON.stringify({ ...serviceAccount, client_email: undefined }) }),
    endpoint.deps,
  )
  await assert.rejects(noEmail.authorize!(request), /have no client_email/)
  const token = createVertexAuthorizer({ ...settings({}), apiKey: 'ya29.static' }, endpoint.deps)
  assert.deepEqual(token.headers, { authorization: 'Bearer ya29.static' })
  assert.equal(token.authorize, undefined)
})

test('user credentials (gcloud application-default login) trade their refresh token', async () => {
  let form: URLSearchParams | undefined
  const authorizer = createVertexAuthorizer(
    settings({
      credentials_json: JSON.stringify({
        type: 'authorized_user',
        client_id: 'cid',
        client_secret: 'csecret',
        refresh_token: 'rt-1',
      }),
    }),
    {
      now: () => 0,
      readFile: () => Promise.reject(new Error('unused')),
      post: async (_url, _headers, body) => {
        form = new URLSearchParams(body)
        return { status: 200, body: '{"access_token":"ya29.user","expires_in":3599}' }
      },
    },
  )
  assert.deepEqual(await authorizer.authorize!(request), { authorization: 'Bearer ya29.user' })
  assert.equal(form?.get('grant_type'), 'refresh_token')
  assert.equal(form?.get('refresh_token'), 'rt-1')
})

test("Vertex errors: Google's status table or Anthropic's types, named Vertex AI; quota is a 429 with a retry delay", () => {
  const vertex = settings({ project: 'p' })
  const gemini = adapterFor('vertex', 'gemini-2.5-pro', vertex)
  const quota = gemini.classifyError(
    429,
    '[{"error":{"code":429,"message":"Quota exceeded for aiplatform.googleapis.com","status":"RESOURCE_EXHAUSTED"}}]',
    {},
  )
  assert.deepEqual(quota, {
    kind: 'rate_limited',
    message: 'Vertex AI: Quota exceeded for aiplatform.googleapis.com',
    retryAfterSeconds: 1,
  })
  assert.deepEqual(gemini.classifyError(401, '{"error":{"code":401,"status":"UNAUTHENTICATED"}}', {}), {
    kind: 'upstream_error',
    message: "Vertex AI rejected the gateway's credentials (HTTP 401)",
  })
  const claude = adapterFor('vertex', 'claude-sonnet-4', vertex)
  assert.deepEqual(
    claude.classifyError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', {}),
    { kind: 'upstream_overloaded', message: 'Vertex AI: Overloaded' },
  )
  assert.equal(
    claude.classifyError(400, '{"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT"}}', {}).kind,
    'invalid_request',
  )
})

test('embeddings: one :predict instance per input with its task type, token counts summed', () => {
  const vertex = settings({ project: 'my-proj' })
  const built = vertexEmbeddings.buildRequest(
    {
      model: 'text-embedding-005',
      inputs: [
        { type: 'text', text: 'a' },
        { type: 'parts', parts: [{ type: 'text', text: 'b' }] },
      ],
      dimensions: 16,
      input_type: 'search_query',
    },
    vertex,
  )
  assert.equal(
    built.path,
    '/v1/projects/my-proj/locations/us-east5/publishers/google/models/text-embedding-005:predict',
  )
  assert.deepEqual(built.body, {
    instances: [
      { content: 'a', task_type: 'RETRIEVAL_QUERY' },
      { content: 'b', task_type: 'RETRIEVAL_QUERY' },
    ],
    parameters: { outputDimensionality: 16 },
  })
  const answer = JSON.stringify({
    predictions: [
      { embeddings: { values: [0.1, 0.2], statistics: { token_count: 3, truncated: false } } },
      { embeddings: { values: [0.3, 0.4], statistics: { token_count: 4, truncated: false } } },
    ],
  })
  assert.deepEqual(vertexEmbeddings.parseResponse(answer, 2), {
    vectors: [
      [0.1, 0.2],
      [0.3, 0.4],
    ],
    model: '',
    prompt_tokens: 7,
  })
  assert.throws(() => vertexEmbeddings.parseResponse(answer, 3), /Vertex AI returned 2 embeddings for 3 inputs/)
  assert.throws(
    () => vertexEmbeddings.buildRequest({ model: 'm', inputs: [{ type: 'tokens', tokens: [1, 2] }] }, vertex),
    /take text, not token arrays/,
  )
})
