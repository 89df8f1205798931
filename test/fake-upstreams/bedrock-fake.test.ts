// The fake Bedrock is proved right by @aws-sdk/client-bedrock-runtime: Converse JSON and ConverseStream
// binary event-stream frames (CRC-checked by the SDK's decoder), both SigV4-signed by the SDK and
// verified by the fake; a wrong secret is refused.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime'
import { NodeHttpHandler } from '@smithy/node-http-handler'
import { startFakeUpstream } from './fake-upstream.ts'
import { verifySigv4 } from './sigv4-verifier.ts'

const credentials = { accessKeyId: 'AKIDFAKE', secretAccessKey: 'fake-secret' }
// The SDK's default handler speaks HTTP/2; the fake is an HTTP/1.1 server, as the gateway's transport is a client.
const modelId = 'anthropic.claude-3-5-sonnet-20240620-v1:0'

async function fakeBedrock() {
  return startFakeUpstream({
    api: 'bedrock',
    verify: (request) => verifySigv4(request, { ...credentials, region: 'us-east-1', service: 'bedrock' }),
  })
}

test('the SDK reads the fake Converse answer: text, tool use, stop reason and cache usage', async () => {
  const upstream = await fakeBedrock()
  try {
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: upstream.url,
      credentials,
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler(),
    })
    upstream.script({
      type: 'completion',
      text: 'Checking',
      toolCalls: [{ id: 'tool_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      usage: { input_tokens: 100, output_tokens: 9, cached_input_tokens: 60, cache_write_tokens: 10 },
    })
    const answer = await client.send(
      new ConverseCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'Weather?' }] }] }),
    )
    assert.equal(answer.stopReason, 'tool_use')
    assert.equal(answer.output?.message?.content?.[0]?.text, 'Checking')
    assert.deepEqual(answer.output?.message?.content?.[1]?.toolUse?.input, { city: 'Paris' })
    assert.equal(answer.usage?.cacheReadInputTokens, 60)
    assert.equal(upstream.requests[0]?.path, `/model/${encodeURIComponent(modelId)}/converse`)
  } finally {
    await upstream.close()
  }
})

test('the SDK decodes the fake ConverseStream event-stream frames', async () => {
  const upstream = await fakeBedrock()
  try {
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: upstream.url,
      credentials,
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler(),
    })
    upstream.script({ type: 'completion', text: 'streamed ✓ words', reasoning: 'thinking', chunks: 4 })
    const answer = await client.send(
      new ConverseStreamCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'Hi' }] }] }),
    )
    let text = ''
    let reasoning = ''
    let stopReason: string | undefined
    let outputTokens: number | undefined
    for await (const event of answer.stream!) {
      text += event.contentBlockDelta?.delta?.text ?? ''
      reasoning += event.contentBlockDelta?.delta?.reasoningContent?.text ?? ''
      stopReason ??= event.messageStop?.stopReason
      outputTokens ??= event.metadata?.usage?.outputTokens
    }
    assert.equal(text, 'streamed ✓ words')
    assert.equal(reasoning, 'thinking')
    assert.equal(stopReason, 'end_turn')
    assert.equal(outputTokens, 5)
  } finally {
    await upstream.close()
  }
})

test('a request signed with the wrong secret is refused by the fake (403 AccessDeniedException)', async () => {
  const upstream = await fakeBedrock()
  try {
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: upstream.url,
      credentials: { ...credentials, secretAccessKey: 'wrong' },
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler(),
    })
    await assert.rejects(
      client.send(new ConverseCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'x' }] }] })),
      (error: { name?: string; $metadata?: { httpStatusCode?: number } }) =>
        error.$metadata?.httpStatusCode === 403 && error.name === 'AccessDeniedException',
    )
  } finally {
    await upstream.close()
  }
})
