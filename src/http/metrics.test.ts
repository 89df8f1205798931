import { test } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { createHttpMetrics } from './metrics.ts'

function gauge(scrape: string, name: string): number {
  const line = scrape.split('\n').find((row) => row.startsWith(`${name} `))
  assert.ok(line !== undefined, `${name} is scraped`)
  return Number(line.slice(name.length + 1))
}

const maxLag = 'switchyard_nodejs_eventloop_lag_max_seconds'

test('/metrics reports the longest event-loop delay since the previous scrape (prom-client default metrics)', async () => {
  const { registry } = createHttpMetrics()
  await registry.metrics()
  // Node's delay monitor drops the interval under way when a scrape resets it: hold the loop after the next one.
  await sleep(50)
  const heldUntil = performance.now() + 300
  while (performance.now() < heldUntil) {
    // What a request that holds the event loop for 300 ms does to every other request.
  }
  await sleep(50)
  const scrape = await registry.metrics()
  for (const quantile of ['min', 'mean', 'p50', 'p90', 'p99']) {
    assert.ok(gauge(scrape, `switchyard_nodejs_eventloop_lag_${quantile}_seconds`) >= 0)
  }
  assert.ok(gauge(scrape, maxLag) >= 0.25, `${maxLag} ${gauge(scrape, maxLag)}`)
})
