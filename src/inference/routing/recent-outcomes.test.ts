// The attempts window behind endpoint health: nearest-rank percentiles, the error count, samples that
// leave the window, and the per-endpoint bound.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Clock } from '../../domain/clock.ts'
import { RecentOutcomes } from './recent-outcomes.ts'

class StepClock implements Clock {
  at = 0
  now(): Date {
    return new Date(this.at)
  }
}

const attempt = (endpointId: string, status: number, latencyMs: number) => ({
  model: 'm/x',
  provider: 'p',
  endpointId,
  status,
  latencyMs,
})

test('percentiles are nearest-rank over the window and errors are non-200 attempts', () => {
  const clock = new StepClock()
  const outcomes = new RecentOutcomes(clock, 60_000)
  for (let latency = 100; latency >= 1; latency--)
    outcomes.record(attempt('e1', latency % 10 === 0 ? 502 : 200, latency))
  assert.deepEqual(outcomes.summaries(), [
    { endpointId: 'e1', provider: 'p', model: 'm/x', requests: 100, errors: 10, latencyP50Ms: 50, latencyP99Ms: 99 },
  ])
})

test('attempts older than the window leave it, and an endpoint without any is dropped', () => {
  const clock = new StepClock()
  const outcomes = new RecentOutcomes(clock, 60_000)
  outcomes.record(attempt('e1', 200, 5))
  clock.at = 30_000
  outcomes.record(attempt('e1', 500, 7))
  outcomes.record(attempt('e2', 200, 9))
  clock.at = 60_000
  assert.deepEqual(
    outcomes.summaries().map((summary) => [summary.endpointId, summary.requests, summary.errors]),
    [
      ['e1', 1, 1],
      ['e2', 1, 0],
    ],
  )
  clock.at = 90_000
  assert.deepEqual(outcomes.summaries(), [])
})

test('an endpoint keeps at most maxSamples, the newest', () => {
  const clock = new StepClock()
  const outcomes = new RecentOutcomes(clock, 60_000, 10)
  for (let index = 0; index < 35; index++) outcomes.record(attempt('e1', index < 30 ? 500 : 200, index))
  const [summary] = outcomes.summaries()
  assert.equal(summary?.requests, 10)
  assert.equal(summary?.errors, 5)
  assert.equal(summary?.latencyP50Ms, 29)
})
