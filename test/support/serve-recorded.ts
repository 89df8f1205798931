// A tiny loopback HTTP server that answers every request with recorded bytes (a JSON body or SSE
// text), so official SDKs can be pointed at our encoders' output. Records what the clients sent.

import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedReply {
  readonly status?: number
  /** A JSON body (object) or SSE text (string, served as text/event-stream). */
  readonly body: Record<string, unknown> | string
  readonly headers?: Readonly<Record<string, string>>
}

export interface ReceivedRequest {
  readonly method: string
  readonly url: string
  readonly body: unknown
}

export interface RecordedServer {
  /** `http://127.0.0.1:<port>` followed by the base path given. */
  readonly baseUrl: string
  readonly received: ReceivedRequest[]
  close(): Promise<void>
}

/** Serves the replies in order; the last one repeats (SDK retries get the same answer). */
export async function serveRecorded(replies: readonly RecordedReply[], basePath = '/api/v1'): Promise<RecordedServer> {
  const received: ReceivedRequest[] = []
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      })
      const reply = replies[Math.min(received.length - 1, replies.length - 1)]
      if (reply === undefined) throw new Error('serveRecorded needs at least one reply')
      send(response, reply)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error === undefined ? resolve() : reject(error)))
      }),
  }
}

function send(response: ServerResponse, reply: RecordedReply): void {
  const isSse = typeof reply.body === 'string'
  response.writeHead(reply.status ?? 200, {
    'content-type': isSse ? 'text/event-stream' : 'application/json',
    ...reply.headers,
  })
  response.end(isSse ? reply.body : JSON.stringify(reply.body))
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
