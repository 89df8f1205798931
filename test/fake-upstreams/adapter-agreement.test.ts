// Each fake upstream and the matching adapter must agree: what the fake streams and what it answers as
// JSON both translate to the scripted content, and the two paths give the same canonical result.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { CanonicalCall } from '../../src/domain/inference/call.ts'
import { foldStreamEvents } from '../../src/domain/inference/fold-stream-events.ts'
import { providerApis } from '../../src/domain/inference/provider-api.ts'
import type { ProviderApi } from '../../src/domain/inference/provider-api.ts'
import type { Usage } from '../../src/domain/inference/usage.ts'
import { makeUsage } from '../../src/domain/inference/usage.ts'
import { adapterFor } from '../../src/providers/registry.ts'
import { startFakeUpstream } from './fake-upstream.ts'
import type { CompletionReply } from './scripted-reply.ts'
import { callThroughAdapter, providerAt } from './stream-through-adapter.ts'

/** What each API can express: Anthropic reports cache writes but no reasoning tokens; the others the reverse. */
const usages: Readonly<Record<ProviderApi, Partial<Usage>>> = {
  'openai-chat': { input_tokens: 1200, output_tokens: 300, cached_input_tokens: 1000, reasoning_tokens: 200 },
  'openai-responses': { input_tokens: 1200, output_tokens: 300, cached_input_tokens: 1000, reasoning_tokens: 200 },
  anthropic: { input_tokens: 1200, output_tokens: 300, cached_input_tokens: 1000, cache_write_tokens: 150 },
  gemini: { input_tokens: 1200, output_tokens: 300, cached_input_tokens: 1000, reasoning_tokens: 200 },
  'azure-openai': { input_tokens: 1200, output_tokens: 300, cached_input_tokens: 1000, reasoning_tokens: 200 },
  bedrock: { input_tokens: 1200, output_tokens: 300, cached_input_tokens: 1000, cache_write_tokens: 150 },
  vertex: { input_tokens: 1200, output_tokens: 300, cached_input_tokens: 1000, reasoning_tokens: 200 },
}

const call = (stream: boolean): CanonicalCall => ({
  model: 'fake-model-1',
  stream,
  messages: [{ role: 'user', content: 'Weather in Paris?' }],
})

for (const api of providerApis) {
  test(`${api}: the fake's stream and JSON both translate to the scripted reply`, async () => {
    const upstream = await startFakeUpstream({ api, apiKey: 'test-key' })
    try {
      const reply: CompletionReply = {
        type: 'completion',
        id: 'resp_fixed',
        reasoning: 'The user wants the weather — call the tool.',
        reasoningSignature: 'sig-123',
        text: 'Checking Paris… ☀️',
        toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris","days":2}' }],
        usage: usages[api],
        chunks: 4,
      }
      upstream.script(reply, reply)
      const adapter = adapterFor(api, 'fake-model-1', providerAt('http://127.0.0.1', api))
      const streamed = await callThroughAdapter(adapter, upstream.url, call(true))
      assert.equal(streamed.status, 200)
      const fromStream = foldStreamEvents(streamed.events)
      const json = await callThroughAdapter(adapter, upstream.url, call(false))
      assert.equal(json.status, 200)
      assert.deepEqual(fromStream, adapter.parseResponse(json.json))

      assert.deepEqual(
        fromStream.output.map((item) => item.type),
        ['reasoning', 'text', 'tool-call'],
      )
      const [reasoning, text, tool] = fromStream.output
      assert.equal(reasoning?.type === 'reasoning' && reasoning.text, reply.reasoning)
      assert.equal(
        reasoning?.type === 'reasoning' && reasoning.origin,
        api === 'azure-openai' ? 'openai-chat' : api === 'bedrock' ? 'anthropic' : api === 'vertex' ? 'gemini' : api,
      )
      assert.equal(text?.type === 'text' && text.text, reply.text)
      assert.equal(tool?.type === 'tool-call' && tool.name, 'get_weather')
      assert.equal(tool?.type === 'tool-call' && tool.arguments, '{"city":"Paris","days":2}')
      assert.deepEqual(fromStream.usage, makeUsage(usages[api]))
      assert.equal(fromStream.finish_reason, 'tool_calls')
      assert.equal(fromStream.model, api === 'bedrock' ? '' : 'fake-model-1', 'Converse names no model')
      assert.ok(
        streamed.events.filter((event) => event.type === 'text-delta').length > 1,
        'text arrives in several deltas',
      )
    } finally {
      await upstream.close()
    }
  })

  test(`${api}: a mid-stream disconnect and a malformed frame both end in stream-error`, async () => {
    const upstream = await startFakeUpstream({ api })
    try {
      upstream.script(
        { type: 'completion', text: 'abcdefghij', chunks: 5, disconnectAfterFrames: 3 },
        { type: 'completion', text: 'abcdef', malformedFrameAfterFrames: 2 },
      )
      const adapter = adapterFor(api, 'fake-model-1', providerAt('http://127.0.0.1', api))
      const dropped = await callThroughAdapter(adapter, upstream.url, call(true))
      assert.deepEqual(dropped.events.at(-1), {
        type: 'stream-error',
        kind: 'upstream_error',
        message: 'The upstream stream ended before the message was complete',
      })
      assert.equal(dropped.events.filter((event) => event.type === 'stream-error').length, 1)
      const malformed = await callThroughAdapter(adapter, upstream.url, call(true))
      const last = malformed.events.at(-1)
      // A binary framing cannot read text garbage as a frame at all: the stream breaks off instead.
      const expected = api === 'bedrock' ? 'The upstream stream ended' : 'Malformed upstream stream frame'
      assert.equal(last?.type === 'stream-error' && last.message.startsWith(expected), true)
      assert.ok((await upstream.settled(0)).droppedAt !== undefined)
    } finally {
      await upstream.close()
    }
  })

  test(`${api}: scripted HTTP errors classify through the adapter`, async () => {
    const upstream = await startFakeUpstream({ api })
    try {
      upstream.script({ type: 'error', status: 429, retryAfterSeconds: 7 }, { type: 'error', status: 500 })
      const adapter = adapterFor(api, 'fake-model-1', providerAt('http://127.0.0.1', api))
      for (const [kind, retryAfterSeconds] of [
        ['rate_limited', 7],
        ['upstream_error', undefined],
      ] as const) {
        const built = adapter.buildRequest(call(false), providerAt(upstream.url, api))
        const response = await fetch(upstream.url + built.path, {
          method: 'POST',
          headers: built.headers,
          body: JSON.stringify(built.body),
        })
        const failure = adapter.classifyError(
          response.status,
          await response.text(),
          Object.fromEntries(response.headers),
        )
        assert.equal(failure.kind, kind)
        assert.equal(failure.retryAfterSeconds, retryAfterSeconds)
      }
    } finally {
      await upstream.close()
    }
  })
}
