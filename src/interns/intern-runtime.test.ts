// The runtime works when the change bus announces an intern change, not only on its poll: with a poll
// of an hour, an announcement still runs a pass, and after stop() it no longer does.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ChangeBus } from '../events/change-bus.ts'
import { InternRuntime } from './intern-runtime.ts'

test('an intern announcement on the change bus runs a pass at once; after stop it does not', async () => {
  const polls: string[][] = []
  const changeBus = new ChangeBus()
  const runtime = new InternRuntime({
    interns: {
      listByStatus: async (statuses: readonly string[]) => {
        polls.push([...statuses])
        return []
      },
    },
    changeBus,
    clock: { now: () => new Date('2026-12-02T00:00:00Z') },
    dataDir: '/nonexistent',
    organizationId: 'org',
    pollIntervalMs: 3_600_000,
    onError: (error: unknown) => assert.fail(String(error)),
  } as never)
  await runtime.start()
  assert.equal(polls.length, 2, 'start: the running interns, then one pass')
  changeBus.publish('intern', 'intern-1')
  changeBus.publish('api_key', 'some-key')
  await runtime.stop()
  assert.equal(polls.length, 3, 'the intern announcement ran one pass; another topic none')
  assert.deepEqual(polls[2], ['queued', 'destroying', 'running'])
  changeBus.publish('intern', 'intern-2')
  await runtime.stop()
  assert.equal(polls.length, 3, 'a stopped runtime no longer listens')
})
