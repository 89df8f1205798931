import { test } from 'node:test'
import assert from 'node:assert/strict'
import { newGenerationId } from '../inference/pipeline/inference-request.ts'
import { stableFraction } from './stable-fraction.ts'

test('the same text always gives the same fraction, within [0, 1)', () => {
  for (const text of ['', 'a', 'gen-1763800000-AbCdEfGhIjKlMnOpQrSt', 'ü€']) {
    const fraction = stableFraction(text)
    assert.equal(stableFraction(text), fraction)
    assert.ok(fraction >= 0 && fraction < 1, `${text}: ${fraction}`)
  }
})

test('generation ids spread evenly: every tenth of [0, 1) gets its share of 20,000 ids', () => {
  const buckets = new Array<number>(10).fill(0)
  for (let index = 0; index < 20_000; index++)
    buckets[Math.floor(stableFraction(newGenerationId(1_763_800_000_000)) * 10)]!++
  for (const count of buckets) assert.ok(count > 1800 && count < 2200, `bucket counts ${buckets.join(', ')}`)
})

test('ids differing in one character land far apart', () => {
  const near = ['gen-1-aaaaaaaaaaaaaaaaaaaa', 'gen-1-aaaaaaaaaaaaaaaaaaab', 'gen-1-baaaaaaaaaaaaaaaaaaa'].map(
    stableFraction,
  )
  assert.ok(Math.abs(near[0]! - near[1]!) > 1e-6 && Math.abs(near[0]! - near[2]!) > 1e-6, near.join(', '))
})
