// The Redis change transport against a redis-server of its own: another instance's announcement
// arrives, the subscription is renewed after Redis restarts, and closing while that renewal may still
// be waiting leaves no unhandled rejection.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Redis } from 'ioredis'
import { ChangeBus } from '../../src/events/change-bus.ts'
import { encodeChangeMessage } from '../../src/events/change-message.ts'
import { startRedisChangeTransport } from '../../src/events/redis-change-transport.ts'
import { hasRedisServer, sparePort, startRedisServer, stopRedisServer } from '../support/redis-server.ts'
import { waitFor } from '../support/wait-for.ts'

test(
  'announcements from another instance arrive before and after Redis restarts',
  { skip: hasRedisServer ? false : 'redis-server is not installed' },
  async () => {
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    const port = await sparePort()
    let server = await startRedisServer(port)
    const url = `redis://127.0.0.1:${port}`
    const bus = new ChangeBus()
    const received: string[] = []
    bus.subscribe('preset', (id) => void received.push(id))
    const transport = await startRedisChangeTransport({
      url,
      channel: 'changes',
      instanceId: 'this',
      bus,
      onError: () => undefined,
    })
    const other = new Redis(url, { maxRetriesPerRequest: null })
    other.on('error', () => undefined)
    const announce = (id: string) =>
      other.publish('changes', encodeChangeMessage({ instanceId: 'other', topic: 'preset', entityId: id }))
    try {
      await announce('before')
      await waitFor(() => (received.includes('before') ? true : undefined), 'the first announcement')

      await stopRedisServer(server)
      server = await startRedisServer(port)
      // Announce until one arrives: the subscriber reconnects on its own schedule.
      await waitFor(async () => {
        await announce('after').catch(() => undefined)
        return received.includes('after') ? true : undefined
      }, 'an announcement after the restart')

      // Close right after another restart, while the renewed subscription may still be waiting.
      await stopRedisServer(server)
      server = await startRedisServer(port)
      await transport.close()
      await new Promise((resolve) => setTimeout(resolve, 100))
      assert.deepEqual(unhandled, [])
    } finally {
      process.off('unhandledRejection', onUnhandled)
      other.disconnect()
      await stopRedisServer(server)
    }
  },
)
