import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isConnectionFailure } from './connection-failure.ts'

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code })

test('refused sockets, dropped connections and PostgreSQL connection states are connection failures', () => {
  assert.equal(isConnectionFailure(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')), true)
  assert.equal(isConnectionFailure(new Error('Connection terminated unexpectedly')), true)
  assert.equal(isConnectionFailure(withCode('terminating connection due to administrator command', '57P01')), true)
  assert.equal(isConnectionFailure(withCode('connection failure', '08006')), true)
  assert.equal(isConnectionFailure(new Error('wrapped', { cause: withCode('x', 'ECONNRESET') })), true)
  assert.equal(isConnectionFailure(new AggregateError([withCode('a', 'ECONNREFUSED')])), true)
})

test('constraint violations and programming errors are not', () => {
  assert.equal(isConnectionFailure(withCode('duplicate key value violates unique constraint', '23505')), false)
  assert.equal(isConnectionFailure(new TypeError('x is not a function')), false)
  assert.equal(isConnectionFailure('a string'), false)
})
