// The log lines a request writes: one access line with the request id and the route's facts, and any
// error line for the request carrying the same request id, so an operator can join them.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import pino from 'pino'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

const lines: Record<string, unknown>[] = []
let gateway: TestGateway
before(async () => {
  gateway = await startTestGateway({
    logger: pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    ),
  })
})
after(() => gateway.close())

const linesOf = (requestId: string): Record<string, unknown>[] => lines.filter((line) => line.reqId === requestId)

test('an answered request writes one access line: request id, method, path without query, route, status, ms, key label', async () => {
  const response = await gateway.inject({
    method: 'GET',
    url: '/api/v1/organization/members?limit=5',
    headers: { ...bearer(gateway.adminKey), 'x-request-id': 'access-1' },
  })
  assert.equal(response.statusCode, 200)
  const [line, ...others] = linesOf('access-1')
  assert.equal(others.length, 0)
  assert.deepEqual(Object.keys(line!), [
    'level',
    'time',
    'pid',
    'hostname',
    'reqId',
    'method',
    'url',
    'route',
    'status',
    'ms',
    'key',
    'msg',
  ])
  assert.deepEqual(
    { ...line, time: 0, pid: 0, hostname: '', ms: 0, key: '' },
    {
      level: 30,
      time: 0,
      pid: 0,
      hostname: '',
      reqId: 'access-1',
      method: 'GET',
      url: '/api/v1/organization/members',
      route: '/api/v1/organization/members',
      status: 200,
      ms: 0,
      key: '',
      msg: 'request',
    },
  )
  assert.equal(typeof line!.ms, 'number')
  assert.match(String(line!.key), /^sk-sy-v1-/)
})

test('a request without a key has no key field; an error it logs carries its request id', async () => {
  await gateway.inject({ method: 'GET', url: '/api/v1/organization/members', headers: { 'x-request-id': 'access-2' } })
  const [line] = linesOf('access-2')
  assert.deepEqual(Object.keys(line!), [
    'level',
    'time',
    'pid',
    'hostname',
    'reqId',
    'method',
    'url',
    'route',
    'status',
    'ms',
    'msg',
  ])
  assert.equal(line!.status, 401)

  const broken = await startTestGateway({
    logger: pino(
      { level: 'info' },
      { write: (text: string) => void lines.push(JSON.parse(text) as Record<string, unknown>) },
    ),
  })
  // internals: no API breaks the store; closing the gateway's own connection is how it goes away.
  await broken.internals.foundation.store.close()
  await broken.inject({ method: 'GET', url: '/ready', headers: { 'x-request-id': 'access-3' } })
  await broken.gateway.app.fastify.close()
  await broken.database.dispose()
  const [warning, access] = linesOf('access-3')
  assert.deepEqual(Object.keys(warning!), ['level', 'time', 'pid', 'hostname', 'reqId', 'kind', 'status', 'msg'])
  assert.deepEqual(
    [warning!.level, warning!.kind, warning!.status, warning!.msg],
    [40, 'unavailable', 503, 'The store is unreachable'],
  )
  assert.deepEqual([access!.msg, access!.status, access!.route], ['request', 503, '/ready'])
})
