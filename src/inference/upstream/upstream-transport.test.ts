import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { neverCancelled } from '../../domain/cancellation.ts'
import { readAllCapped, ResponseTooLarge, UpstreamTransport, type UpstreamAnswer } from './upstream-transport.ts'

/** A real server whose answer `respond` writes, and a real undici body read from it. */
async function withAnswer(
  respond: (response: ServerResponse) => void,
  read: (answer: UpstreamAnswer) => Promise<void>,
): Promise<void> {
  const server: Server = createServer((_request, response) => respond(response))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const transport = new UpstreamTransport()
  try {
    const { port } = server.address() as AddressInfo
    const answer = await transport.send({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      path: '/x',
      headers: {},
      body: '{}',
      signal: neverCancelled,
      headersTimeoutMs: 5_000,
      bodyTimeoutMs: 5_000,
    })
    await read(answer)
  } finally {
    await transport.close()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

test('readAllCapped joins a body written in several chunks', async () => {
  await withAnswer(
    (response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('{"a":')
      setTimeout(() => response.end('"é"}'), 20)
    },
    async (answer) => {
      assert.deepEqual(JSON.parse((await readAllCapped(answer.body)).toString('utf8')), { a: 'é' })
    },
  )
})

test('readAllCapped fails with ResponseTooLarge past its limit and stops reading', async () => {
  await withAnswer(
    (response) => {
      response.writeHead(200)
      response.write('x'.repeat(600))
      setTimeout(() => response.end('x'.repeat(600)), 20)
    },
    async (answer) => {
      await assert.rejects(
        readAllCapped(answer.body, 1_000),
        (error) => error instanceof ResponseTooLarge && /larger than 1000 bytes/.test(error.message),
      )
      assert.equal(answer.body.destroyed, true)
    },
  )
})

test('readAllCapped fails, and does not hang, when the upstream cuts the body short', async () => {
  await withAnswer(
    (response) => {
      response.writeHead(200, { 'content-length': '100' })
      response.write('{"partial":')
      setTimeout(() => response.socket?.destroy(), 20)
    },
    async (answer) => {
      await assert.rejects(readAllCapped(answer.body))
    },
  )
})
