// A real node:http server on loopback that records every request (method, path, headers, raw body)
// and the client port it came from (equal ports = one reused keep-alive connection), and answers with a
// status and a delay the test can change at any time.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
  readonly remotePort: number
}

export interface RecordingServer {
  readonly requests: RecordedRequest[]
  readonly url: string
  status: number
  /** Milliseconds to wait before answering (0 by default). */
  delayMs: number
  /** Connections open right now (kept-alive ones included). */
  openConnections(): Promise<number>
  close(): Promise<void>
}

export async function startRecordingServer(port = 0): Promise<RecordingServer> {
  const requests: RecordedRequest[] = []
  const state = { status: 200, delayMs: 0 }
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const status = state.status
      if (status >= 200 && status < 300)
        requests.push({
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks),
          remotePort: request.socket.remotePort ?? 0,
        })
      const answer = (): void => void response.writeHead(status, { 'content-type': 'application/json' }).end('{}')
      if (state.delayMs === 0) answer()
      else setTimeout(answer, state.delayMs)
    })
  })
  server.keepAliveTimeout = 60_000 // idle connections close only when the client closes them
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.address() as AddressInfo
  return {
    requests,
    url: `http://127.0.0.1:${address.port}`,
    get status() {
      return state.status
    },
    set status(value: number) {
      state.status = value
    },
    get delayMs() {
      return state.delayMs
    },
    set delayMs(value: number) {
      state.delayMs = value
    },
    openConnections: () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, count) => (error === null ? resolve(count) : reject(error))),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
