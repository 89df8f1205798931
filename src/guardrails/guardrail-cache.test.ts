import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ChangeBus } from '../events/change-bus.ts'
import type { GuardrailsRepository } from '../store/repositories/guardrails-repository.ts'
import type { GuardrailAssignmentsRepository } from '../store/repositories/guardrail-assignments-repository.ts'
import { GuardrailCache } from './guardrail-cache.ts'
import type { GuardrailRecord } from '../domain/guardrail-record.ts'

type Holders = Awaited<ReturnType<GuardrailAssignmentsRepository['holders']>>

test('a whole reload that read before a change cannot undo the refresh the change announced', async () => {
  const guardrail = { id: 'g1' } as GuardrailRecord
  const keys: Holders['keys'] = []
  let releaseStaleRead = (): void => undefined
  const guardrails = {
    list: async () => ({ rows: [guardrail], total: 1 }),
    find: async () => guardrail,
  } as unknown as GuardrailsRepository
  const assignments = {
    async holders(guardrailId?: string): Promise<Holders> {
      const read: Holders = {
        keys: keys.filter((row) => guardrailId === undefined || row.guardrail_id === guardrailId),
        members: [],
      }
      // The whole reload's read is answered late, as from a slow connection of a pool.
      if (guardrailId === undefined) await new Promise<void>((resolve) => (releaseStaleRead = resolve))
      return read
    },
  } as unknown as GuardrailAssignmentsRepository
  const bus = new ChangeBus()
  const cache = new GuardrailCache(guardrails, assignments, bus)

  const reload = cache.load()
  await new Promise((resolve) => setImmediate(resolve))
  keys.push({ guardrail_id: 'g1', key_hash: 'k1' })
  bus.publish('guardrail', 'g1')
  await new Promise((resolve) => setImmediate(resolve))
  releaseStaleRead()
  await reload
  await cache.settled()

  assert.equal(cache.guardrailOfKey('k1')?.id, 'g1')
})
