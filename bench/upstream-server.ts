// Child process: a zero-latency fake upstream for the benchmark. It speaks OpenAI chat completions
// (/v1/chat/completions), OpenAI responses (/v1/responses), OpenAI embeddings (/v1/embeddings) and
// Anthropic messages (/v1/messages), using the test fake's wire encoders, but renders every answer once
// at start and records nothing. Streams send `--chunks` text pieces, one write per SSE frame. The
// observability receivers are a process of their own (receiver-server.ts).
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parseArgs } from 'node:util'
import { anthropicDialect } from '../test/fake-upstreams/anthropic-dialect.ts'
import type { FakeDialect } from '../test/fake-upstreams/fake-dialect.ts'
import { openaiChatDialect } from '../test/fake-upstreams/openai-chat-dialect.ts'
import { openaiResponsesDialect } from '../test/fake-upstreams/openai-responses-dialect.ts'
import { embeddingVector, planCompletion } from '../test/fake-upstreams/scripted-reply.ts'
import { serveHttpChild } from './http-child.ts'

interface Rendered {
  readonly json: string
  readonly frames: readonly string[]
}

function render(dialect: FakeDialect, chunks: number): Rendered {
  const text = Array.from({ length: chunks }, (_, index) => `word${index} `).join('')
  const plan = planCompletion(
    { type: 'completion', text, chunks, usage: { input_tokens: 12, output_tokens: chunks } },
    1,
    'up-model',
  )
  return { json: JSON.stringify(dialect.completionJson(plan)), frames: dialect.completionFrames(plan) }
}

const { values } = parseArgs({ options: { chunks: { type: 'string', default: '50' } } })
const chunks = Number(values.chunks)
/**
 * One vector of 1,536 floats (OpenAI's text-embedding-3-small), with the full precision a real
 * provider sends (about 20 characters a number), so the answer is ~30 KB as in production.
 */
function renderEmbeddings(): Rendered {
  const inputs = ['Say hello to the benchmark.']
  const vectors = inputs.map((input) =>
    embeddingVector(input, 1536).map((value, index) => value * 0.05 + Math.sin(index + 1) * 1e-9),
  )
  const json = openaiChatDialect.embeddingsJson(vectors, {
    kind: 'embeddings',
    inputs,
    model: 'up-model',
    batch: false,
  })
  return { json: JSON.stringify(json), frames: [] }
}

const routes = new Map<string, Rendered>([
  ['/v1/chat/completions', render(openaiChatDialect, chunks)],
  ['/v1/responses', render(openaiResponsesDialect, chunks)],
  ['/v1/messages', render(anthropicDialect, chunks)],
  ['/v1/embeddings', renderEmbeddings()],
])

function answer(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
  const rendered = routes.get(request.url ?? '')
  if (rendered === undefined) {
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}')
    return
  }
  if (!body.includes(streamFlag)) {
    response.writeHead(200, { 'content-type': 'application/json' }).end(rendered.json)
    return
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  for (const frame of rendered.frames) response.write(frame)
  response.end()
}

const streamFlag = Buffer.from('"stream":true')
serveHttpChild(answer)
