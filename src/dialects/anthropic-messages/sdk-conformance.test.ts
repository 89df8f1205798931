// The official @anthropic-ai/sdk must accept what this dialect sends and rebuild the same content,
// tool inputs and usage, plain and streamed.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import Anthropic from '@anthropic-ai/sdk'
import {
  encodeTranscript,
  loadDialectTranscripts,
  transcriptContext,
} from '../../../test/support/dialect-transcripts.ts'
import { serveRecorded } from '../../../test/support/serve-recorded.ts'
import { GatewayError } from '../../domain/errors.ts'
import { foldStreamEvents } from '../../domain/inference/fold-stream-events.ts'
import { createAnthropicMessagesDialect } from './anthropic-messages-dialect.ts'

const dialect = createAnthropicMessagesDialect()
const transcripts = loadDialectTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))
const scenario = (name: string) => {
  const found = transcripts.find((transcript) => transcript.scenario === name)
  assert.ok(found, name)
  return found
}
const request = { model: 'acme/fast-1', max_tokens: 100, messages: [{ role: 'user' as const, content: 'x' }] }

async function withClient<T>(
  body: Record<string, unknown> | string,
  run: (client: Anthropic) => Promise<T>,
  status = 200,
): Promise<T> {
  const server = await serveRecorded([{ body, status }], '')
  try {
    return await run(new Anthropic({ apiKey: 'x', baseURL: server.baseUrl, maxRetries: 0 }))
  } finally {
    await server.close()
  }
}

test('messages.create parses text, tool_use input and usage', async () => {
  const body = dialect.encodeResult(foldStreamEvents(scenario('tool-call').events), transcriptContext)
  const message = await withClient(body, (client) => client.messages.create(request))
  assert.equal(message.stop_reason, 'tool_use')
  assert.deepEqual(
    message.content.map((block) =>
      block.type === 'text' ? block.text : block.type === 'tool_use' ? [block.id, block.name, block.input] : block.type,
    ),
    ['Let me check.', ['call_abc', 'get_weather', { city: 'Paris' }], ['call_def', 'get_time', { tz: 'CET' }]],
  )
  assert.deepEqual([message.usage.input_tokens, message.usage.output_tokens], [40, 22])
})

test('messages stream: finalMessage() equals the JSON body for every scenario', async () => {
  for (const name of ['plain-text', 'tool-call', 'reasoning', 'redacted-thinking', 'incomplete']) {
    const transcript = scenario(name)
    const sse = encodeTranscript(transcript, dialect.createStreamEncoder(transcript.context))
    const streamed = await withClient(sse, (client) => client.messages.stream(request).finalMessage())
    const plain = dialect.encodeResult(foldStreamEvents(transcript.events), transcript.context)
    assert.deepEqual(streamed.content, plain.content, name)
    assert.equal(streamed.stop_reason, plain.stop_reason, name)
    const usage = streamed.usage as unknown as Record<string, unknown>
    assert.deepEqual(
      {
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
      },
      plain.usage,
      name,
    )
  }
})

test('messages stream: a mid-stream error event makes the SDK throw with its type and message', async () => {
  const transcript = scenario('error-mid-stream')
  const sse = encodeTranscript(transcript, dialect.createStreamEncoder(transcript.context))
  await assert.rejects(
    withClient(sse, (client) => client.messages.stream(request).finalMessage()),
    (error: unknown) =>
      error instanceof Anthropic.APIError &&
      error.message.includes('Overloaded') &&
      error.message.includes('overloaded_error'),
  )
})

test('messages errors: the SDK maps the status and reads the Anthropic error body', async () => {
  const encoded = dialect.encodeError(new GatewayError('invalid_request', 'max_tokens: is required'))
  assert.deepEqual(encoded, {
    status: 400,
    body: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: is required', code: 400 } },
  })
  await assert.rejects(
    withClient(encoded.body, (client) => client.messages.create(request), encoded.status),
    (error: unknown) => error instanceof Anthropic.BadRequestError && error.message.includes('max_tokens: is required'),
  )
  const overloaded = dialect.encodeError(new GatewayError('upstream_overloaded'))
  assert.equal(overloaded.status, 529)
})
