// Cross-instance change delivery over Redis pub/sub: one connection publishes, one subscribes, and
// subscribes again after every reconnect. Messages lost while disconnected are healed by the periodic
// cache refresh (cache-refresher.ts).
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
  // ioredis's own re-subscription (autoResubscribe) sends its SUBSCRIBE without a rejection handler:
  // a client closed while that command waited (Redis just back, the gateway stopping) ended in an
  // unhandled rejection. The subscription is renewed here instead, on every reconnect after the first.
  const subscriber = new Redis(options.url, { maxRetriesPerRequest: null, autoResubscribe: false })
  publisher.on('error', () => undefined)
  subscriber.on('error', () => undefined)
  let connectedBefore = false
  subscriber.on('ready', () => {
    if (connectedBefore) subscriber.subscribe(options.channel).catch(options.onError)
    connectedBefore = true
  })
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
    publisher
      .publish(options.channel, encodeChangeMessage({ instanceId: options.instanceId, topic, entityId }))
      .catch(options.onError)
  })
  return {
    kind: 'redis',
    close: async () => {
      await Promise.all([
        publisher.quit().catch(() => publisher.disconnect()),
        subscriber.quit().catch(() => subscriber.disconnect()),
      ])
    },
  }
}
