import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../config/load-config.ts'
import { defaultDeliveryOptions, deliveryOptionsFrom } from './delivery-options.ts'

function loadYaml(yaml: string) {
  const cwd = mkdtempSync(join(tmpdir(), 'switchyard-delivery-'))
  writeFileSync(join(cwd, 'switchyard.yaml'), yaml)
  return loadConfig({ env: {}, cwd })
}

test('the batch window is 500 ms unless observability.delivery.batch_delay_ms sets it (0: the next turn)', () => {
  assert.equal(deliveryOptionsFrom(loadYaml('')).batchDelayMs, 500)
  assert.equal(defaultDeliveryOptions.batchDelayMs, 500)
  const options = deliveryOptionsFrom(
    loadYaml('observability:\n  delivery:\n    batch_delay_ms: 0\n    batch_size: 20\n'),
  )
  assert.equal(options.batchDelayMs, 0)
  assert.equal(options.batchSize, 20)
  assert.throws(
    () => loadYaml('observability:\n  delivery:\n    batch_delay_ms: -1\n'),
    (error: unknown) =>
      error instanceof ConfigError && error.problems.some((problem) => problem.includes('batch_delay_ms')),
  )
})
