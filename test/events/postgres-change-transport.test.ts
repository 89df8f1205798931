// PostgreSQL LISTEN/NOTIFY between two transports on one database: changes published in one tick all
// arrive at the other instance, in order, and never as overlapping queries on the one connection
// (pg deprecates those and pg 9 refuses them).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { ChangeBus, type ChangeTopic } from '../../src/events/change-bus.ts'
import { startPostgresChangeTransport } from '../../src/events/postgres-change-transport.ts'
import { postgresTarget } from '../support/test-services.ts'
import { waitFor } from '../support/wait-for.ts'

const postgres = postgresTarget()

test(
  'a burst of changes in one tick reaches the other instance, in order, one query at a time',
  { skip: postgres.skip },
  async () => {
    const channel = `sy_changes_${randomBytes(4).toString('hex')}`
    const errors: unknown[] = []
    const warnings: Error[] = []
    const onWarning = (warning: Error) => warnings.push(warning)
    process.on('warning', onWarning)
    const sender = new ChangeBus()
    const receiver = new ChangeBus()
    const received: string[] = []
    for (const topic of ['api_key', 'workspace'] as ChangeTopic[])
      receiver.subscribe(topic, (entityId) => void received.push(`${topic}:${entityId}`))
    const a = await startPostgresChangeTransport({
      url: postgres.url!,
      channel,
      instanceId: 'a',
      bus: sender,
      onError: (error) => errors.push(error),
    })
    const b = await startPostgresChangeTransport({
      url: postgres.url!,
      channel,
      instanceId: 'b',
      bus: receiver,
      onError: (error) => errors.push(error),
    })
    try {
      const sent = Array.from({ length: 20 }, (_, index) =>
        index % 2 === 0 ? `api_key:k${index}` : `workspace:w${index}`,
      )
      for (const change of sent) {
        const [topic, entityId] = change.split(':') as [ChangeTopic, string]
        sender.publish(topic, entityId)
      }
      await waitFor(
        async () => (received.length === sent.length ? true : undefined),
        'every change at the other instance',
      )
      assert.deepEqual(received, sent)
      assert.deepEqual(errors, [])
      assert.deepEqual(
        warnings
          .filter((warning) => /already executing a query/.test(warning.message))
          .map((warning) => warning.message),
        [],
      )
    } finally {
      process.off('warning', onWarning)
      await a.close()
      await b.close()
    }
  },
)
