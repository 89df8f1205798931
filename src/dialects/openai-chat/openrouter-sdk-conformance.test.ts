// The official @openrouter/sdk must accept every chat object this dialect sends, plain and streamed:
// its zod schemas reject a chunk whose fields are not the types they declare.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { OpenRouter } from '@openrouter/sdk'
import type { ChatStreamChunk } from '@openrouter/sdk/models'
import { encodeTranscript, loadDialectTranscripts } from '../../../test/support/dialect-transcripts.ts'
import { serveRecorded } from '../../../test/support/serve-recorded.ts'
import { foldStreamEvents } from '../../domain/inference/fold-stream-events.ts'
import { createOpenAiChatDialect } from './openai-chat-dialect.ts'

const dialect = createOpenAiChatDialect()
const transcripts = loadDialectTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))
const messages = [{ role: 'user' as const, content: 'x' }]

async function withClient<T>(body: Record<string, unknown> | string, run: (client: OpenRouter) => Promise<T>) {
  const server = await serveRecorded([{ body }])
  try {
    return await run(new OpenRouter({ apiKey: 'x', serverURL: server.baseUrl, retryConfig: { strategy: 'none' } }))
  } finally {
    await server.close()
  }
}

async function streamChunks(sse: string): Promise<ChatStreamChunk[]> {
  return withClient(sse, async (client) => {
    const stream = await client.chat.send({ chatRequest: { model: 'acme/fast-1', messages, stream: true } })
    assert.ok(Symbol.asyncIterator in stream, 'a stream')
    const chunks: ChatStreamChunk[] = []
    for await (const chunk of stream) chunks.push(chunk)
    return chunks
  })
}

test('chat.send({stream: true}) parses every chunk of every scenario and rebuilds the text and usage', async () => {
  for (const transcript of transcripts.filter((found) => found.scenario !== 'error-mid-stream')) {
    const sse = encodeTranscript(transcript, dialect.createStreamEncoder(transcript.context))
    const chunks = await streamChunks(sse)
    const plain = dialect.encodeResult(foldStreamEvents(transcript.events), transcript.context) as {
      choices: { message: { content: string | null } }[]
      usage: { total_tokens: number }
    }
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')
    assert.equal(text, plain.choices[0]?.message.content ?? '', transcript.scenario)
    assert.equal(chunks[0]?.choices[0]?.delta.role, 'assistant', transcript.scenario)
    assert.equal(chunks.at(-1)?.usage?.totalTokens, plain.usage.total_tokens, transcript.scenario)
  }
})

test('chat.send({stream: true}) hands over a mid-stream error chunk with its code and message', async () => {
  const transcript = transcripts.find((found) => found.scenario === 'error-mid-stream')
  assert.ok(transcript)
  const chunks = await streamChunks(encodeTranscript(transcript, dialect.createStreamEncoder(transcript.context)))
  assert.deepEqual(
    chunks.map((chunk) => chunk.choices[0]?.delta.content),
    ['', 'Partial', ''],
  )
  assert.deepEqual(chunks.at(-1)?.error, { code: 529, message: 'Overloaded' })
})

test('chat.send without stream parses the completion, system_fingerprint included', async () => {
  const transcript = transcripts.find((found) => found.scenario === 'tool-call')
  assert.ok(transcript)
  const body = dialect.encodeResult(foldStreamEvents(transcript.events), transcript.context)
  const result = await withClient(body, (client) =>
    client.chat.send({ chatRequest: { model: 'acme/fast-1', messages, stream: false } }),
  )
  assert.ok(!(Symbol.asyncIterator in result))
  assert.equal(result.systemFingerprint, null)
  assert.equal(result.choices[0]?.message.content, 'Let me check.')
  assert.equal(result.choices[0]?.message.toolCalls?.[0]?.function.name, 'get_weather')
})
