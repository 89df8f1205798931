// A real node:http server on 127.0.0.1:0 that speaks one provider API, answers from a script and
// records every request. `url` is the provider's base_url as config would name it.
//
//   const upstream = await startFakeUpstream({ api: 'anthropic' })
//   upstream.script({ type: 'error', status: 429, retryAfterSeconds: 2 }, { type: 'completion', text: 'Hi' })
//   ... drive the gateway at upstream.url ...
//   upstream.requests[0].body; await upstream.close()

import { createServer } from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ProviderApi } from '../../src/domain/inference/provider-api.ts'
import { anthropicDialect } from './anthropic-dialect.ts'
import { azureOpenAiDialect } from './azure-openai-dialect.ts'
import { bedrockDialect } from './bedrock-dialect.ts'
import { routedBody, type FakeDialect, type FakeRoute } from './fake-dialect.ts'
import { geminiDialect } from './gemini-dialect.ts'
import { openaiChatDialect } from './openai-chat-dialect.ts'
import { openaiResponsesDialect } from './openai-responses-dialect.ts'
import { vertexDialect } from './vertex-dialect.ts'
import { embeddingVector, planCompletion } from './scripted-reply.ts'
import type { CompletionReply, EmbeddingsReply, ErrorReply, ScriptedReply } from './scripted-reply.ts'

const dialects: Readonly<Record<ProviderApi, FakeDialect>> = {
  'openai-chat': openaiChatDialect,
  'openai-responses': openaiResponsesDialect,
  anthropic: anthropicDialect,
  gemini: geminiDialect,
  'azure-openai': azureOpenAiDialect('chat'),
  bedrock: bedrockDialect,
  vertex: vertexDialect,
}

export interface RecordedRequest {
  readonly method: string
  /** Path and query as received, e.g. `/v1/chat/completions`. */
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly rawBody: string
  /** The parsed JSON body, or undefined when it was not JSON. */
  readonly body: unknown
  /** Date.now() when the request body had arrived. */
  readonly receivedAt: number
  /** When the response was fully written. */
  respondedAt?: number
  /** When the client went away before the response was complete. */
  abortedAt?: number
  /** When the script dropped the connection (`reset`, `disconnectAfterFrames`). */
  droppedAt?: number
}

export interface FakeUpstreamOptions {
  readonly api: ProviderApi
  /** When set, requests without this key (in the API's auth header) get a 401. */
  readonly apiKey?: string
  /** Another dialect for the API (Azure's Responses wire: `azureOpenAiDialect('responses')`). */
  readonly dialect?: FakeDialect
  /** Authenticates a request instead of `apiKey` (the fake Bedrock verifies SigV4, the fake Vertex its tokens); false -> 403. */
  readonly verify?: (request: RecordedRequest) => Promise<boolean>
}

export interface FakeUpstream {
  readonly api: ProviderApi
  /** The base_url to configure: origin + `/v1` for the OpenAI APIs, bare origin otherwise. */
  readonly url: string
  readonly origin: string
  readonly requests: readonly RecordedRequest[]
  /** Queues replies, answered in order; an empty queue answers a default completion or embeddings. */
  script(...replies: ScriptedReply[]): void
  /** Resolves once the response to request `index` is complete or the client has gone. */
  settled(index: number): Promise<RecordedRequest>
  close(): Promise<void>
}

const authHeaders: Readonly<Record<ProviderApi, (headers: IncomingHttpHeaders) => string | undefined>> = {
  'openai-chat': (headers) => headers.authorization?.replace(/^Bearer /, ''),
  'openai-responses': (headers) => headers.authorization?.replace(/^Bearer /, ''),
  anthropic: (headers) => [headers['x-api-key']].flat()[0],
  gemini: (headers) => [headers['x-goog-api-key']].flat()[0],
  bedrock: (headers) => headers.authorization?.replace(/^Bearer /, ''),
  vertex: (headers) => headers.authorization?.replace(/^Bearer /, ''),
  'azure-openai': (headers) => [headers['api-key']].flat()[0] ?? headers.authorization?.replace(/^Bearer /, ''),
}

/** Each API's free model list (GET, from the origin), which `switchyard doctor` calls with the credential. */
const modelLists: Readonly<Record<ProviderApi, { readonly path: string; readonly body: unknown }>> = {
  'openai-chat': { path: '/v1/models', body: { object: 'list', data: [{ id: 'fake-1', object: 'model' }] } },
  'openai-responses': { path: '/v1/models', body: { object: 'list', data: [{ id: 'fake-1', object: 'model' }] } },
  anthropic: { path: '/v1/models', body: { data: [{ id: 'fake-1', type: 'model' }], has_more: false } },
  gemini: { path: '/v1beta/models', body: { models: [{ name: 'models/fake-1' }] } },
  'azure-openai': { path: '/openai/v1/models', body: { object: 'list', data: [{ id: 'fake-1', object: 'model' }] } },
  bedrock: { path: '/', body: {} },
  vertex: { path: '/v1/publishers/google/models', body: { publisherModels: [] } },
}

export async function startFakeUpstream(options: FakeUpstreamOptions): Promise<FakeUpstream> {
  const dialect = options.dialect ?? dialects[options.api]
  const responder = new ScriptedResponder(dialect, options)
  const settledWaiters = new Map<number, Promise<RecordedRequest>>()
  const sockets = new Set<Socket>()
  const server = createServer((request, response) => {
    const index = settledWaiters.size
    settledWaiters.set(index, responder.handle(request, response, index))
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    api: options.api,
    origin,
    url: origin + dialect.basePath,
    requests: responder.requests,
    script: (...replies) => responder.enqueue(replies),
    settled: async (index) => {
      for (let attempt = 0; !settledWaiters.has(index); attempt++) {
        if (attempt > 500) throw new Error(`fake upstream: request ${index} never arrived`)
        await sleep(10)
      }
      return settledWaiters.get(index) as Promise<RecordedRequest>
    },
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
}

/** Answers each request from the script queue in the dialect's wire format and records it. */
class ScriptedResponder {
  readonly requests: RecordedRequest[] = []
  private readonly queue: ScriptedReply[] = []

  constructor(
    private readonly dialect: FakeDialect,
    private readonly options: FakeUpstreamOptions,
  ) {}

  enqueue(replies: readonly ScriptedReply[]): void {
    this.queue.push(...replies)
  }

  async handle(request: IncomingMessage, response: ServerResponse, index: number): Promise<RecordedRequest> {
    const rawBody = await readBody(request)
    const record: RecordedRequest = {
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      rawBody,
      body: parseJson(rawBody),
      receivedAt: Date.now(),
    }
    this.requests[index] = record
    const closed = new Promise<void>((resolve) =>
      response.on('close', () => {
        if (response.writableFinished) record.respondedAt = Date.now()
        else if (record.droppedAt === undefined) record.abortedAt = Date.now()
        resolve()
      }),
    )
    await this.respond(record, response, index, () => {
      record.droppedAt = Date.now()
      response.socket?.destroy()
    })
    await closed
    return record
  }

  private async respond(
    record: RecordedRequest,
    response: ServerResponse,
    index: number,
    drop: () => void,
  ): Promise<void> {
    const models = modelLists[this.options.api]
    if (record.method === 'GET' && record.path === models.path) {
      if (this.options.apiKey !== undefined && authHeaders[this.options.api](record.headers) !== this.options.apiKey)
        return this.sendError(response, { type: 'error', status: 401, message: 'Invalid API key' })
      return sendJson(response, 200, models.body)
    }
    const route = record.method === 'POST' ? this.dialect.route(record.path, routedBody(record.body)) : undefined
    if (route === undefined)
      return this.sendError(response, {
        type: 'error',
        status: 404,
        message: `No route for ${record.method} ${record.path}`,
      })
    if (this.options.verify !== undefined && !(await this.options.verify(record)))
      return this.sendError(response, { type: 'error', status: 403, message: 'The request signature does not match' })
    if (this.options.apiKey !== undefined && authHeaders[this.options.api](record.headers) !== this.options.apiKey) {
      return this.sendError(response, { type: 'error', status: 401, message: 'Invalid API key' })
    }
    const reply = this.queue.shift() ?? (route.kind === 'completion' ? { type: 'completion' } : { type: 'embeddings' })
    if (reply.type === 'reset') return drop()
    if (reply.type === 'error') return this.sendError(response, reply)
    if (route.kind === 'embeddings' && reply.type === 'embeddings')
      return sendJson(
        response,
        200,
        this.dialect.embeddingsJson(vectorsFor(reply, route.inputs), route, reply.promptTokens),
      )
    if (route.kind === 'completion' && reply.type === 'completion')
      return this.sendCompletion(response, reply, route, index, drop)
    return this.sendError(response, {
      type: 'error',
      status: 500,
      message: `fake upstream: a scripted ${reply.type} reply does not fit a ${route.kind} request`,
    })
  }

  private sendError(response: ServerResponse, reply: ErrorReply): void {
    const headers: Record<string, string> = {
      ...this.dialect.errorHeaders?.(reply.status, reply.errorType),
      ...reply.headers,
    }
    if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds)
    sendJson(
      response,
      reply.status,
      this.dialect.errorBody(reply.status, reply.message ?? `Scripted error ${reply.status}`, reply.errorType),
      headers,
    )
  }

  private async sendCompletion(
    response: ServerResponse,
    reply: CompletionReply,
    route: Extract<FakeRoute, { kind: 'completion' }>,
    sequence: number,
    drop: () => void,
  ): Promise<void> {
    const plan = planCompletion(reply, sequence, route.model)
    if (!route.stream) {
      if (reply.holdAfterFrames === 0 && reply.hold !== undefined) await reply.hold
      if (response.destroyed) return
      if (reply.chunkDelayMs !== undefined && reply.chunkDelayMs > 0) await sleep(reply.chunkDelayMs)
      return sendJson(response, 200, this.dialect.completionJson(plan))
    }
    const contentType = this.dialect.streamContentType ?? 'text/event-stream'
    response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' })
    const frames = this.dialect.binaryFrames?.(plan) ?? this.dialect.completionFrames(plan)
    for (const [position, frame] of frames.entries()) {
      if (reply.disconnectAfterFrames === position) return drop()
      if (reply.malformedFrameAfterFrames === position) await write(response, 'data: {"truncated": tr\n\n')
      if (reply.holdAfterFrames === position && reply.hold !== undefined) await reply.hold
      if (reply.chunkDelayMs !== undefined && reply.chunkDelayMs > 0) await sleep(reply.chunkDelayMs)
      if (response.destroyed) return
      await write(response, frame)
    }
    response.end()
  }
}

function vectorsFor(reply: EmbeddingsReply, inputs: readonly string[]): (readonly number[])[] {
  return reply.vectors !== undefined
    ? [...reply.vectors]
    : inputs.map((input) => embeddingVector(input, reply.dimensions ?? 8))
}

/** Writes and waits until the bytes are handed to the socket, so a later drop cannot swallow them. */
async function write(response: ServerResponse, frame: string | Uint8Array): Promise<void> {
  await new Promise<void>((resolve) => response.write(frame, () => resolve()))
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
