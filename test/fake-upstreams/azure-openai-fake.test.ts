// The fake Azure OpenAI is proved right by openai's own AzureOpenAI client: deployment URLs with
// api-version, the api-key header or an Entra bearer token, chat (plain and streamed), embeddings and
// the Responses API. A fake the client cannot read fails here.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { AzureOpenAI } from 'openai'
import { startFakeUpstream } from './fake-upstream.ts'
import { azureOpenAiDialect } from './azure-openai-dialect.ts'

const apiVersion = '2024-10-21'

test('AzureOpenAI with api-key: chat plain and streamed, and embeddings, at deployment URLs', async () => {
  const upstream = await startFakeUpstream({ api: 'azure-openai', apiKey: 'azure-secret' })
  try {
    const client = new AzureOpenAI({ endpoint: upstream.url, apiKey: 'azure-secret', apiVersion, maxRetries: 0 })
    upstream.script({ type: 'completion', text: 'Bonjour', usage: { input_tokens: 3, output_tokens: 2 } })
    const plain = await client.chat.completions.create({
      model: 'gpt-4o-prod',
      messages: [{ role: 'user', content: 'hi' }],
    })
    assert.equal(plain.choices[0]?.message.content, 'Bonjour')
    assert.equal(
      upstream.requests[0]?.path,
      `/openai/deployments/gpt-4o-prod/chat/completions?api-version=${apiVersion}`,
    )
    assert.equal(upstream.requests[0]?.headers['api-key'], 'azure-secret')

    upstream.script({ type: 'completion', text: 'streamed words here', chunks: 3 })
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-prod',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    })
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    assert.equal(text, 'streamed words here')

    const embedded = await client.embeddings.create({ model: 'embed-prod', input: ['a', 'b'] })
    assert.equal(embedded.data.length, 2)
    assert.equal(upstream.requests[2]?.path, `/openai/deployments/embed-prod/embeddings?api-version=${apiVersion}`)

    const wrongKey = new AzureOpenAI({ endpoint: upstream.url, apiKey: 'nope', apiVersion, maxRetries: 0 })
    await assert.rejects(
      wrongKey.chat.completions.create({ model: 'd', messages: [{ role: 'user', content: 'x' }] }),
      (error: { status?: number }) => error.status === 401,
    )
  } finally {
    await upstream.close()
  }
})

test('AzureOpenAI with an Entra token provider: the Responses API, plain and streamed', async () => {
  const upstream = await startFakeUpstream({
    api: 'azure-openai',
    apiKey: 'entra-token',
    dialect: azureOpenAiDialect('responses'),
  })
  try {
    const client = new AzureOpenAI({
      endpoint: upstream.url,
      azureADTokenProvider: async () => 'entra-token',
      apiVersion: '2025-04-01-preview',
      maxRetries: 0,
    })
    upstream.script({ type: 'completion', text: 'Responses on Azure' })
    const plain = await client.responses.create({ model: 'gpt-4.1-prod', input: 'hi' })
    assert.equal(plain.output_text, 'Responses on Azure')
    assert.equal(upstream.requests[0]?.path, '/openai/responses?api-version=2025-04-01-preview')
    assert.equal(upstream.requests[0]?.headers.authorization, 'Bearer entra-token')

    upstream.script({ type: 'completion', text: 'streamed response', chunks: 3 })
    let text = ''
    for await (const event of await client.responses.create({ model: 'gpt-4.1-prod', input: 'hi', stream: true }))
      if (event.type === 'response.output_text.delta') text += event.delta
    assert.equal(text, 'streamed response')
  } finally {
    await upstream.close()
  }
})
