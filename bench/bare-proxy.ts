// Child process: the floor. A bare undici pass-through proxy: /api/v1/<path> -> <upstream>/v1/<path>,
// request and response bodies streamed, headers copied, one keep-alive pool. No auth, no parsing.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pipeline } from 'node:stream/promises'
import { parseArgs } from 'node:util'
import { Pool } from 'undici'
import { serveChildProtocol } from './child-process.ts'

const { values } = parseArgs({ options: { upstream: { type: 'string' } } })
const pool = new Pool(values.upstream ?? 'http://127.0.0.1:1', { connections: 256, keepAliveTimeout: 60_000 })
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length'])

const server = createServer((request, response) => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) {
    if (!hopByHop.has(name) && typeof value === 'string') headers[name] = value
  }
  const path = (request.url ?? '/').replace('/api/v1/', '/v1/')
  pool
    .request({ method: 'POST', path, headers, body: request })
    .then(async (upstream) => {
      const out: Record<string, string> = {}
      for (const [name, value] of Object.entries(upstream.headers)) {
        if (!hopByHop.has(name) && typeof value === 'string') out[name] = value
      }
      response.writeHead(upstream.statusCode, out)
      await pipeline(upstream.body, response)
    })
    .catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: String(error) } }))
    })
})
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => {
  serveChildProtocol((server.address() as AddressInfo).port, async () => {
    server.closeAllConnections()
    server.close()
    await pool.close()
  })
})
