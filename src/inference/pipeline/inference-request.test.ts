import { test } from 'node:test'
import assert from 'node:assert/strict'
import { newGenerationId } from './inference-request.ts'

const second = 1_763_800_000_000

test('a generation id is gen-<unix seconds>-<20 base62 characters>', () => {
  const id = newGenerationId(second + 999)
  assert.match(id, /^gen-1763800000-[0-9A-Za-z]{20}$/)
})

test('ids made one after another sort in the order they were made, and never repeat', () => {
  // Stores append ids that sort by creation at the right edge of their indexes (see sequenceLength).
  const ids = Array.from({ length: 5_000 }, () => newGenerationId(second))
  assert.deepEqual([...ids].sort(), ids)
  assert.equal(new Set(ids).size, ids.length)
  const later = newGenerationId(second + 1000)
  assert.ok(later > ids.at(-1)!, `${later} sorts after ${ids.at(-1)}`)
})

test('past the sequence the rest of the id is random', () => {
  const [first, next] = [newGenerationId(second), newGenerationId(second)]
  assert.notEqual(first.slice(-16), next.slice(-16))
})
