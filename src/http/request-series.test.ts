// The scraped series must read exactly as prom-client's own Counter and Histogram would for the same
// observations, so dashboards and alerts built on the old metrics keep working.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Counter, Histogram, Registry } from 'prom-client'
import { RequestSeries } from './request-series.ts'

const buckets = [0.001, 0.01, 0.1, 1]
const observations: [string, string, number, number][] = [
  ['GET', '/a', 200, 0.0004],
  ['GET', '/a', 200, 0.001],
  ['GET', '/a', 200, 0.05],
  ['POST', '/b/:id', 404, 2.5],
  ['GET', '/a', 500, 0.3],
  ['POST', '/b/:id', 404, 0.0101],
]

test('counts, cumulative buckets, +Inf, sum and count match prom-client for the same observations', async () => {
  const ours = new Registry()
  const series = new RequestSeries({
    counter: { name: 'x_requests_total', help: 'requests' },
    histogram: { name: 'x_duration_seconds', help: 'duration', buckets },
  })
  series.register(ours)
  const reference = new Registry()
  const counter = new Counter({
    name: 'x_requests_total',
    help: 'requests',
    labelNames: ['method', 'route', 'status'],
    registers: [reference],
  })
  const histogram = new Histogram({
    name: 'x_duration_seconds',
    help: 'duration',
    labelNames: ['method', 'route', 'status'],
    buckets,
    registers: [reference],
  })
  for (const [method, route, status, seconds] of observations) {
    series.observe(method, route, status, seconds)
    counter.inc({ method, route, status: String(status) })
    histogram.observe({ method, route, status: String(status) }, seconds)
  }
  const sorted = (text: string): string[] =>
    text
      .split('\n')
      .filter((line) => line !== '')
      .sort()
  assert.deepEqual(sorted(await ours.metrics()), sorted(await reference.metrics()))
})
