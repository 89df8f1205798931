// A LabeledCounter must scrape exactly as prom-client's Counter would for the same increments, so
// dashboards and alerts built on the counters it replaced keep working.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Counter, Registry } from 'prom-client'
import { LabeledCounter } from './labeled-counter.ts'

const sorted = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .sort()

test('series, values and label escaping match prom-client for the same increments', async () => {
  const ours = new Registry()
  const reference = new Registry()
  const counter = new LabeledCounter({
    name: 'x_attempts_total',
    help: 'attempts by provider and status',
    labelNames: ['provider', 'status'],
    registers: [ours],
  })
  const prom = new Counter({
    name: 'x_attempts_total',
    help: 'attempts by provider and status',
    labelNames: ['provider', 'status'] as const,
    registers: [reference],
  })
  const increments = [
    { provider: 'openai', status: '200' },
    { provider: 'openai', status: '200' },
    { provider: 'openai', status: '429' },
    { provider: 'anthropic', status: '0' },
    { provider: 'we"ird\\name\nhere', status: '200' },
    { provider: 'openai', status: '200' },
  ]
  for (const labels of increments) {
    counter.inc(labels)
    prom.inc(labels)
  }
  assert.equal(await ours.metrics(), await reference.metrics())
  assert.match(await ours.metrics(), /x_attempts_total\{provider="openai",status="200"\} 3/)
})

test('label sets whose values would run together stay separate series', async () => {
  const registry = new Registry()
  const counter = new LabeledCounter({ name: 'x_total', help: 'x', labelNames: ['a', 'b'], registers: [registry] })
  counter.inc({ a: 'ab', b: 'c' })
  counter.inc({ a: 'a', b: 'bc' })
  assert.equal(sorted(await registry.metrics()).filter((line) => line.startsWith('x_total{')).length, 2)
})

test('a counter never incremented renders like an unused prom-client counter', async () => {
  const ours = new Registry()
  const reference = new Registry()
  new LabeledCounter({
    name: 'x_decisions_total',
    help: 'decisions',
    labelNames: ['limit', 'decision'],
    registers: [ours],
  })
  new Counter({
    name: 'x_decisions_total',
    help: 'decisions',
    labelNames: ['limit', 'decision'] as const,
    registers: [reference],
  })
  assert.equal(await ours.metrics(), await reference.metrics())
})
