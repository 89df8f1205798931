// Cross-instance change delivery over Redis pub/sub: one connection publishes, one subscribes (ioredis
// re-subscribes by itself after a reconnect). Messages lost while disconnected are healed by the
// periodic cache refresh (cache-refresher.ts).
import { Redis } from 'ioredis'
import type { ChangeBus } from './change-bus.ts'
import { decodeChangeMessage, encodeChangeMessage } from './change-message.ts'
import type { ChangeTransport } from './open-change-transport.ts'

export interface RedisChangeTransportOptions {
  readonly url: string
  readonly channel: string
  readonly instanceId: string
  readonly bus: ChangeBus
  readonly onError: (error: unknown) => void
}

export async function startRedisChangeTransport(options: RedisChangeTransportOptions): Promise<ChangeTransport> {
  const publisher = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 })
  const subscriber = new Redis(options.url, { maxRetriesPerRequest: null })
  publisher.on('error', () => undefined)
  subscriber.on('error', () => undefined)
  subscriber.on('message', (channel: string, text: string) => {
    if (channel !== options.channel) return
    const message = decodeChangeMessage(text)
    if (message === null || message.instanceId === options.instanceId) return
    options.bus.receive(message.topic, message.entityId)
  })
  try {
    await subscriber.subscribe(options.channel)
  } catch (error) {
    options.onError(error)
  }
  options.bus.connect((topic, entityId) => {
    publisher.publish(options.channel, encodeChangeMessage({ instanceId: options.instanceId, topic, entityId })).catch(options.onError)
  })
  return {
    kind: 'redis',
    close: async () => {
      await Promise.all([publisher.quit().catch(() => publisher.disconnect()), subscriber.quit().catch(() => subscriber.disconnect())])
    },
  }
}
