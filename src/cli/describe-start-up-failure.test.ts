import { test } from 'node:test'
import assert from 'node:assert/strict'
import { describeListenFailure, describeStartFailure } from './describe-start-up-failure.ts'

function systemError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code })
}

const address = { host: '0.0.0.0', port: 8080 }

test('a port in use names the address, the cause and the fix on one line', () => {
  const line = describeListenFailure(systemError('EADDRINUSE', 'listen EADDRINUSE: address already in use'), address)
  assert.equal(
    line,
    'switchyard: cannot listen on 0.0.0.0:8080: the port is in use (EADDRINUSE); set PORT or stop the other process',
  )
})

test('other listen failures say which variable to change; an unknown one keeps its message', () => {
  assert.match(describeListenFailure(systemError('EACCES', 'x'), { host: '0.0.0.0', port: 80 }), /:80: .*set PORT/)
  assert.match(describeListenFailure(systemError('EADDRNOTAVAIL', 'x'), address), /set HOST/)
  assert.equal(describeListenFailure(new Error('odd'), address), 'switchyard: cannot listen on 0.0.0.0:8080: odd')
})

test('a start failure is one line, also for an AggregateError with an empty message or a multi-line message', () => {
  const refused = new AggregateError(
    [
      systemError('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432'),
      systemError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
    ],
    '',
  )
  assert.equal(
    describeStartFailure(refused),
    'switchyard: cannot start: connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432',
  )
  assert.equal(describeStartFailure(new Error('first\n  second')), 'switchyard: cannot start: first; second')
  assert.equal(describeStartFailure(systemError('ETIMEDOUT', '')), 'switchyard: cannot start: ETIMEDOUT')
})
