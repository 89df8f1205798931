// The fake Vertex AI and its fake token endpoint are proved right by Google's and Anthropic's own
// clients: google-auth-library signs the service-account JWT that the fake token endpoint verifies and
// exchanges; AnthropicVertex (rawPredict / streamRawPredict) and @google/genai in Vertex mode
// (generateContent / streamGenerateContent) send that token to the fake Vertex, which accepts only the
// tokens it issued, and read its answers. A fake the clients cannot read, or a JWT it cannot verify, fails.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk'
import { GoogleGenAI, FunctionCallingConfigMode } from '@google/genai'
import { JWT } from 'google-auth-library'
import { foldStreamEvents } from '../../src/domain/inference/fold-stream-events.ts'
import { adapterFor } from '../../src/providers/registry.ts'
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.ts'
import {
  makeServiceAccount,
  startFakeTokenEndpoint,
  type FakeTokenEndpoint,
  type ServiceAccount,
} from './google-token-endpoint.ts'
import { callThroughAdapter, providerAt } from './stream-through-adapter.ts'

const account = makeServiceAccount('gateway')
const claudeModel = 'claude-sonnet-4@20250514'

/** Google's JWT client, its token requests (sent to Google's URL) redirected to the fake endpoint. */
function googleJwt(tokens: FakeTokenEndpoint, key: ServiceAccount = account): JWT {
  return new JWT({
    email: key.clientEmail,
    key: key.json.private_key,
    scopes: ['https://www.googleapis.com/auth/cloud-platform'],
    transporterOptions: {
      fetchImplementation: (input, init) =>
        fetch(String(input) === 'https://oauth2.googleapis.com/token' ? tokens.url : input, init),
    },
  })
}

async function fakeVertex(): Promise<{ upstream: FakeUpstream; tokens: FakeTokenEndpoint }> {
  const tokens = await startFakeTokenEndpoint([account])
  const upstream = await startFakeUpstream({
    api: 'vertex',
    verify: async (request) => tokens.accepts(request.headers.authorization),
  })
  return { upstream, tokens }
}

test('AnthropicVertex with a service account: rawPredict with a tool call, streamRawPredict, a token exchanged once', async () => {
  const { upstream, tokens } = await fakeVertex()
  try {
    const client = new AnthropicVertex({
      region: 'us-east5',
      projectId: 'fake-project',
      baseURL: `${upstream.url}/v1`,
      authClient: googleJwt(tokens),
      maxRetries: 0,
    })
    upstream.script({
      type: 'completion',
      text: 'Checking',
      toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      usage: { input_tokens: 30, output_tokens: 9, cached_input_tokens: 10 },
    })
    const message = await client.messages.create({
      model: claudeModel,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    })
    assert.equal(message.stop_reason, 'tool_use')
    assert.deepEqual(
      message.content.map((block) => block.type),
      ['text', 'tool_use'],
    )
    assert.equal(message.usage.cache_read_input_tokens, 10)
    const sent = upstream.requests[0]!
    assert.equal(
      sent.path,
      `/v1/projects/fake-project/locations/us-east5/publishers/anthropic/models/${claudeModel}:rawPredict`,
    )
    assert.equal((sent.body as { anthropic_version?: string }).anthropic_version, 'vertex-2023-10-16')

    upstream.script({ type: 'completion', text: 'streamed from Vertex', chunks: 4 })
    const streamed = await client.messages
      .stream({ model: claudeModel, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] })
      .finalMessage()
    assert.deepEqual(
      streamed.content.map((block) => (block.type === 'text' ? block.text : block.type)),
      ['streamed from Vertex'],
    )
    assert.match(upstream.requests[1]!.path, /:streamRawPredict$/)
    assert.equal(tokens.exchanges.length, 1, 'the client reuses its token')
    assert.equal(tokens.exchanges[0]!.clientEmail, account.clientEmail)
  } finally {
    await Promise.all([upstream.close(), tokens.close()])
  }
})

test('@google/genai in Vertex mode: generateContent with a function call, then streamGenerateContent', async () => {
  const { upstream, tokens } = await fakeVertex()
  try {
    const ai = new GoogleGenAI({
      vertexai: true,
      project: 'fake-project',
      location: 'europe-west4',
      httpOptions: { baseUrl: upstream.url, apiVersion: 'v1' },
      googleAuthOptions: { authClient: googleJwt(tokens) },
    })
    upstream.script({
      type: 'completion',
      toolCalls: [{ name: 'get_weather', arguments: '{"city":"Rome"}' }],
      usage: { input_tokens: 12, output_tokens: 5 },
    })
    const answer = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Weather in Rome?',
      config: {
        tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object' } }] }],
        toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } },
      },
    })
    assert.deepEqual(answer.functionCalls?.[0], { name: 'get_weather', args: { city: 'Rome' } })
    assert.equal(answer.usageMetadata?.promptTokenCount, 12)
    assert.equal(
      upstream.requests[0]!.path,
      '/v1/projects/fake-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent',
    )

    upstream.script({ type: 'completion', text: 'Ciao da Vertex', chunks: 3 })
    let text = ''
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Hi' }))
      text += chunk.text ?? ''
    assert.equal(text, 'Ciao da Vertex')
    assert.match(upstream.requests[1]!.path, /:streamGenerateContent\?alt=sse$/)
  } finally {
    await Promise.all([upstream.close(), tokens.close()])
  }
})

test('@google/genai in Vertex mode: embedContent reads the fake :predict answer', async () => {
  const { upstream, tokens } = await fakeVertex()
  try {
    const ai = new GoogleGenAI({
      vertexai: true,
      project: 'fake-project',
      location: 'us-central1',
      httpOptions: { baseUrl: upstream.url, apiVersion: 'v1' },
      googleAuthOptions: { authClient: googleJwt(tokens) },
    })
    const answer = await ai.models.embedContent({
      model: 'text-embedding-005',
      contents: ['first input here', 'second'],
      config: { taskType: 'RETRIEVAL_DOCUMENT', outputDimensionality: 8 },
    })
    assert.equal(answer.embeddings?.length, 2)
    assert.equal(answer.embeddings?.[0]?.values?.length, 8)
    assert.equal(answer.embeddings?.[0]?.statistics?.tokenCount, 3)
    const sent = upstream.requests[0]!
    assert.equal(
      sent.path,
      '/v1/projects/fake-project/locations/us-central1/publishers/google/models/text-embedding-005:predict',
    )
    assert.deepEqual(sent.body, {
      instances: [
        { content: 'first input here', task_type: 'RETRIEVAL_DOCUMENT' },
        { content: 'second', task_type: 'RETRIEVAL_DOCUMENT' },
      ],
      parameters: { outputDimensionality: 8 },
    })
  } finally {
    await Promise.all([upstream.close(), tokens.close()])
  }
})

test('the fake token endpoint refuses a JWT signed by a key it does not know, and the fake Vertex a token it did not issue', async () => {
  const { upstream, tokens } = await fakeVertex()
  try {
    const impostor = makeServiceAccount('gateway')
    await assert.rejects(googleJwt(tokens, impostor).getAccessToken(), /invalid_grant: Invalid JWT Signature/)
    assert.deepEqual(tokens.refusals, ['Invalid JWT Signature.'])
    const forged = await fetch(
      `${upstream.url}/v1/projects/fake-project/locations/global/publishers/anthropic/models/${claudeModel}:rawPredict`,
      {
        method: 'POST',
        headers: { authorization: 'Bearer ya29.forged', 'content-type': 'application/json' },
        body: JSON.stringify({ anthropic_version: 'vertex-2023-10-16', max_tokens: 10, messages: [] }),
      },
    )
    assert.equal(forged.status, 403)
  } finally {
    await Promise.all([upstream.close(), tokens.close()])
  }
})

test('Claude on Vertex through the gateway adapter: the stream and the JSON answer agree', async () => {
  const upstream = await startFakeUpstream({ api: 'vertex', apiKey: 'static-token' })
  try {
    const provider = providerAt(upstream.url, 'vertex', {
      apiKey: 'static-token',
      options: { project: 'p1', location: 'us-east5' },
    })
    const adapter = adapterFor('vertex', claudeModel, provider)
    const reply = {
      type: 'completion' as const,
      id: 'msg_fixed',
      reasoning: 'Think first.',
      reasoningSignature: 'sig-1',
      text: 'Sunny in Paris',
      toolCalls: [{ id: 'toolu_9', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      usage: { input_tokens: 1200, output_tokens: 300, cached_input_tokens: 1000, cache_write_tokens: 150 },
      chunks: 4,
    }
    upstream.script(reply, reply)
    const call = (stream: boolean) => ({
      model: claudeModel,
      stream,
      messages: [{ role: 'user' as const, content: 'Weather?' }],
    })
    const streamed = await callThroughAdapter(adapter, upstream.url, call(true), provider)
    const json = await callThroughAdapter(adapter, upstream.url, call(false), provider)
    assert.equal(streamed.status, 200)
    assert.equal(json.status, 200)
    const fromStream = foldStreamEvents(streamed.events)
    assert.deepEqual(fromStream, adapter.parseResponse(json.json))
    assert.deepEqual(
      fromStream.output.map((item) => item.type),
      ['reasoning', 'text', 'tool-call'],
    )
    const reasoning = fromStream.output[0]
    assert.equal(reasoning?.type === 'reasoning' && reasoning.origin, 'anthropic')
    assert.equal(fromStream.usage.cache_write_tokens, 150)
    assert.equal(upstream.requests[0]!.headers.authorization, 'Bearer static-token')
    assert.equal((upstream.requests[1]!.body as { model?: string }).model, undefined)
  } finally {
    await upstream.close()
  }
})
