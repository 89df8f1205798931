import { test } from 'node:test'
import assert from 'node:assert/strict'
import { stableFraction } from '../domain/stable-fraction.ts'
import { GenerationIds } from './generation-ids.ts'

const second = 1_763_800_000_000

test('a generation id is gen-<unix seconds>-<20 base62 characters>', () => {
  const id = new GenerationIds().next(second + 999)
  assert.match(id, /^gen-1763800000-[0-9A-Za-z]{20}$/)
})

test('ids made one after another sort in the order they were made, and never repeat', () => {
  // Stores append ids that sort by creation at the right edge of their indexes (see sequenceLength).
  const generationIds = new GenerationIds()
  const ids = Array.from({ length: 5_000 }, () => generationIds.next(second))
  assert.deepEqual([...ids].sort(), ids)
  assert.equal(new Set(ids).size, ids.length)
  const later = generationIds.next(second + 1000)
  assert.ok(later > ids.at(-1)!, `${later} sorts after ${ids.at(-1)}`)
})

test('past the sequence the rest of the id is random', () => {
  const generationIds = new GenerationIds()
  const [first, next] = [generationIds.next(second), generationIds.next(second)]
  assert.notEqual(first.slice(-16), next.slice(-16))
})

test('generation ids sample evenly: every tenth of [0, 1) gets its share of 20,000 ids', () => {
  // I/O logging samples by stableFraction(generationId), so the counting prefix must not skew it.
  const generationIds = new GenerationIds()
  const buckets = new Array<number>(10).fill(0)
  for (let index = 0; index < 20_000; index++) buckets[Math.floor(stableFraction(generationIds.next(second)) * 10)]!++
  for (const count of buckets) assert.ok(count > 1800 && count < 2200, `bucket counts ${buckets.join(', ')}`)
})
