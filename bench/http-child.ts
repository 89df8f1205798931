// A benchmark child that is one HTTP server on loopback: each request's body is read whole and handed
// to `answer`; the server speaks the child protocol (child-process.ts) and closes its connections when
// told to stop, after `onStop` (which may print what the server saw).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serveChildProtocol } from './child-process.ts'

export type Answer = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void

export function serveHttpChild(answer: Answer, onStop: () => void = () => undefined): void {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => answer(request, response, Buffer.concat(chunks)))
  })
  server.keepAliveTimeout = 60_000
  server.listen(0, '127.0.0.1', () => {
    serveChildProtocol((server.address() as AddressInfo).port, async () => {
      onStop()
      server.closeAllConnections()
      server.close()
    })
  })
}
