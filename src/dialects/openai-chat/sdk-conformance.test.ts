// The official openai SDK must accept what this dialect sends and rebuild the same text, tool calls
// and usage, plain and streamed.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import OpenAI from 'openai'
import {
  encodeTranscript,
  loadDialectTranscripts,
  transcriptContext,
} from '../../../test/support/dialect-transcripts.ts'
import { serveRecorded } from '../../../test/support/serve-recorded.ts'
import { GatewayError } from '../../domain/errors.ts'
import { foldStreamEvents } from '../../domain/inference/fold-stream-events.ts'
import { createOpenAiChatDialect } from './openai-chat-dialect.ts'

const dialect = createOpenAiChatDialect()
const transcripts = loadDialectTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))
const scenario = (name: string) => {
  const found = transcripts.find((transcript) => transcript.scenario === name)
  assert.ok(found, name)
  return found
}
const request = { model: 'acme/fast-1', messages: [{ role: 'user' as const, content: 'x' }] }

async function withClient<T>(
  body: Record<string, unknown> | string,
  run: (client: OpenAI) => Promise<T>,
  status = 200,
): Promise<T> {
  const server = await serveRecorded([{ body, status }])
  try {
    return await run(new OpenAI({ apiKey: 'x', baseURL: server.baseUrl, maxRetries: 0 }))
  } finally {
    await server.close()
  }
}

test('chat.completions.create parses tool calls, content and usage', async () => {
  const body = dialect.encodeResult(foldStreamEvents(scenario('tool-call').events), transcriptContext)
  const completion = await withClient(body, (client) => client.chat.completions.create(request))
  const choice = completion.choices[0]
  assert.equal(choice?.message.content, 'Let me check.')
  assert.equal(choice?.finish_reason, 'tool_calls')
  assert.deepEqual(
    choice?.message.tool_calls?.map((call) =>
      call.type === 'function' ? [call.id, call.function.name, JSON.parse(call.function.arguments)] : [],
    ),
    [
      ['call_abc', 'get_weather', { city: 'Paris' }],
      ['call_def', 'get_time', { tz: 'CET' }],
    ],
  )
  assert.equal(completion.usage?.total_tokens, 62)
})

test('chat stream: the SDK accumulates the same completion as the JSON path', async () => {
  for (const name of ['plain-text', 'tool-call', 'reasoning', 'incomplete', 'routing-metadata']) {
    const transcript = scenario(name)
    const sse = encodeTranscript(transcript, dialect.createStreamEncoder(transcript.context))
    const streamed = await withClient(sse, (client) => client.chat.completions.stream(request).finalChatCompletion())
    const plain = dialect.encodeResult(
      foldStreamEvents(transcript.events),
      transcript.context,
    ) as unknown as OpenAI.ChatCompletion
    const [got, want] = [streamed.choices[0], plain.choices[0]]
    assert.equal(got?.message.content ?? '', want?.message.content ?? '', name)
    assert.equal(got?.finish_reason, want?.finish_reason, name)
    assert.deepEqual(
      got?.message.tool_calls?.map((call) => call.type === 'function' && call.function),
      want?.message.tool_calls?.map((call) => call.type === 'function' && call.function),
      name,
    )
    assert.deepEqual(streamed.usage, plain.usage, name)
  }
})

test('chat stream: iterating create({stream: true}) gives the role first and usage in the last chunk', async () => {
  const transcript = scenario('tool-call')
  const sse = encodeTranscript(transcript, dialect.createStreamEncoder(transcript.context))
  const chunks = await withClient(sse, async (client) => {
    const stream = await client.chat.completions.create({ ...request, stream: true })
    const seen = []
    for await (const chunk of stream) seen.push(chunk)
    return seen
  })
  assert.equal(chunks[0]?.choices[0]?.delta.role, 'assistant')
  assert.equal(chunks.at(-1)?.usage?.completion_tokens, 22)
  const args = chunks
    .flatMap(
      (chunk) =>
        chunk.choices[0]?.delta.tool_calls
          ?.filter((call) => call.index === 1)
          .map((call) => call.function?.arguments ?? '') ?? [],
    )
    .join('')
  assert.deepEqual(JSON.parse(args), { tz: 'CET' })
})

test('chat stream: a mid-stream error makes the SDK throw with the message', async () => {
  const transcript = scenario('error-mid-stream')
  const sse = encodeTranscript(transcript, dialect.createStreamEncoder(transcript.context))
  const seen: string[] = []
  await assert.rejects(
    withClient(sse, async (client) => {
      const stream = await client.chat.completions.create({ ...request, stream: true })
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '')
    }),
    (error: unknown) => error instanceof OpenAI.APIError && error.message.includes('Overloaded'),
  )
  assert.deepEqual(seen, ['', 'Partial'])
})

test('chat errors: the SDK raises the envelope status and message', async () => {
  const encoded = dialect.encodeError(new GatewayError('rate_limited', 'Slow down'))
  await assert.rejects(
    withClient(encoded.body, (client) => client.chat.completions.create(request), encoded.status),
    (error: unknown) => error instanceof OpenAI.RateLimitError && error.message.includes('Slow down'),
  )
})
