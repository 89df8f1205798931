// The socket responder starts a stream with its opening frames on the wire at once: Node holds a
// response's first write in a corked socket until the next tick, which would make the client's first
// byte wait until the pipeline had translated everything the upstream's first read brought. The end of
// an answer (a JSON body, a stream's last frames) waits for deliver().
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { request } from 'undici'
import { fastifyResponder } from './responder.ts'

test('a stream starts with its opening frames sent at once, and the frames written later follow them', async (t) => {
  const app = Fastify()
  t.after(() => app.close())
  let heldInSocket: number | undefined
  let endedBeforeDelivery: boolean | undefined
  app.get('/stream', (_request, reply) => {
    const responder = fastifyResponder(reply)
    const body = responder.startStream({ 'x-generation-id': 'gen-test' }, 'event: opening\ndata: {}\n\n')
    heldInSocket = reply.raw.socket?.writableCorked
    body.write('data: one\n\n')
    responder.endStream('data: [DONE]\n\n')
    endedBeforeDelivery = reply.raw.writableEnded
    responder.deliver()
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
  assert.equal(endedBeforeDelivery, false, 'the last frames wait for deliver()')
})

test('a whole answer leaves only at deliver(), once the call is recorded', async (t) => {
  const app = Fastify()
  t.after(() => app.close())
  let sentBeforeDelivery: boolean | undefined
  app.get('/json', async (_request, reply) => {
    const responder = fastifyResponder(reply)
    responder.sendJson(200, { answer: 42 }, { 'x-generation-id': 'gen-json' })
    assert.equal(responder.isSent, true, 'the pipeline sees the answer as given')
    await new Promise((resolve) => setImmediate(resolve))
    sentBeforeDelivery = reply.sent
    responder.deliver()
    return reply
  })
  const response = await app.inject({ method: 'GET', url: '/json' })
  assert.equal(response.statusCode, 200)
  assert.deepEqual(response.json(), { answer: 42 })
  assert.equal(response.headers['x-generation-id'], 'gen-json')
  assert.equal(sentBeforeDelivery, false)
})
