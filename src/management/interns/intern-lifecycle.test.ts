import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  applyInternEvent,
  internStatuses,
  transitions,
  type InternEvent,
  type LifecycleState,
} from './intern-lifecycle.ts'
import { GatewayError } from '../../domain/errors.ts'

const at = (status: LifecycleState['status'], last_failure_message: string | null = null): LifecycleState => ({
  status,
  progress: null,
  last_failure_message,
})

test('the API moves: provision from stopped or failed queues, suspend stops, destroy tears down', () => {
  assert.equal(applyInternEvent(at('stopped'), 'provision').status, 'queued')
  const retried = applyInternEvent(at('failed', 'disk full'), 'provision')
  assert.deepEqual(
    retried,
    { status: 'queued', progress: null, last_failure_message: null },
    'a new start clears the failure',
  )
  assert.equal(applyInternEvent(at('running'), 'suspend').status, 'stopped')
  assert.equal(applyInternEvent(at('queued'), 'destroy').status, 'destroying')
  assert.equal(applyInternEvent(at('destroy_failed'), 'destroy').status, 'destroying')
})

test('runtime events record progress and failures', () => {
  const progress = { step_label: 'Booting', step_number: 1, total_steps: 3 }
  assert.deepEqual(applyInternEvent(at('queued'), 'runtime_started', { progress }), {
    status: 'provisioning',
    progress,
    last_failure_message: null,
  })
  assert.deepEqual(applyInternEvent(at('provisioning'), 'runtime_failed', { failureMessage: 'image pull failed' }), {
    status: 'failed',
    progress: null,
    last_failure_message: 'image pull failed',
  })
})

test('illegal moves are 409 naming the current state', () => {
  for (const [status, event] of [
    ['running', 'provision'],
    ['queued', 'provision'],
    ['stopped', 'suspend'],
    ['destroying', 'destroy'],
    ['destroying', 'provision'],
  ] as const) {
    assert.throws(
      () => applyInternEvent(at(status), event as InternEvent),
      (error: unknown) =>
        error instanceof GatewayError && error.status === 409 && error.message.includes(`is ${status}`),
    )
  }
})

test('every state has a row and every target is a known state; only destroy leaves destroy_failed', () => {
  assert.deepEqual(Object.keys(transitions).sort(), [...internStatuses].sort())
  for (const row of Object.values(transitions))
    for (const target of Object.values(row)) assert.ok(internStatuses.includes(target))
  assert.deepEqual(Object.keys(transitions.destroy_failed), ['destroy'])
})
