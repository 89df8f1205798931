import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { redisTarget } from '../../test/support/test-services.ts'
import { probeRedis, RedisUnreachableError } from './probe-redis.ts'

const target = redisTarget()

test('a Redis that answers passes the probe', { skip: target.skip }, async () => {
  await probeRedis(target.url ?? assert.fail('TEST_REDIS_URL is not set'))
})

test('a refused connection: the error names REDIS_URL without its password, the cause and the fix', async () => {
  // Port 1 needs privileges to listen on: nothing answers there.
  const error = await probeRedis('redis://someone:s3cret@127.0.0.1:1', { attempts: 2 }).then(
    () => assert.fail('the probe passed'),
    (caught: unknown) => caught,
  )
  assert.ok(error instanceof RedisUnreachableError)
  assert.equal(
    error.message,
    'Redis at REDIS_URL (redis://someone:***@127.0.0.1:1) did not answer: connect ECONNREFUSED 127.0.0.1:1; ' +
      'start Redis or correct REDIS_URL (unset it to run a single instance with counters in memory)',
  )
  assert.doesNotMatch(error.message, /s3cret/)
})

test('a server that accepts the connection and never answers: the probe gives up at its deadline', async () => {
  const sockets = new Set<Socket>()
  const silent = createServer((socket) => sockets.add(socket))
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  const { port } = silent.address() as AddressInfo
  try {
    await assert.rejects(probeRedis(`redis://127.0.0.1:${port}`, { deadlineMs: 200 }), {
      name: 'RedisUnreachableError',
      message: new RegExp(
        `^Redis at REDIS_URL \\(redis://127\\.0\\.0\\.1:${port}\\) did not answer: no answer within 0\\.2 s; `,
      ),
    })
  } finally {
    for (const socket of sockets) socket.destroy()
    silent.close()
  }
})
