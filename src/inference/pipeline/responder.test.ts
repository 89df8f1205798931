// The socket responder starts a stream with its opening frames on the wire at once: Node holds a
// response's first write in a corked socket until the next tick, which would make the client's first
// byte wait until the pipeline had translated everything the upstream's first read brought.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { request } from 'undici'
import { fastifyResponder } from './responder.ts'

test('a stream starts with its opening frames sent at once, and the frames written later follow them', async (t) => {
  const app = Fastify()
  t.after(() => app.close())
  let heldInSocket: number | undefined
  app.get('/stream', (_request, reply) => {
    const body = fastifyResponder(reply).startStream({ 'x-generation-id': 'gen-test' }, 'event: opening\ndata: {}\n\n')
    heldInSocket = reply.raw.socket?.writableCorked
    body.write('data: one\n\n')
    body.end('data: [DONE]\n\n')
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0

  const response = await request(`http://127.0.0.1:${port}/stream`)
  assert.equal(response.statusCode, 200)
  assert.equal(response.headers['content-type'], 'text/event-stream; charset=utf-8')
  assert.equal(response.headers['x-generation-id'], 'gen-test')
  assert.equal(await response.body.text(), 'event: opening\ndata: {}\n\ndata: one\n\ndata: [DONE]\n\n')
  assert.equal(heldInSocket, 0, 'the opening frames are not held in a corked socket until the next tick')
})
