// Cross-instance change delivery over PostgreSQL LISTEN/NOTIFY, for deployments without Redis. One
// dedicated connection listens and notifies; when it drops, it is reopened after a short pause, and
// what was missed meanwhile is healed by the periodic cache refresh (cache-refresher.ts).
import pg from 'pg'
import type { ChangeBus } from './change-bus.ts'
import { decodeChangeMessage, encodeChangeMessage } from './change-message.ts'
import type { ChangeTransport } from './open-change-transport.ts'

export interface PostgresChangeTransportOptions {
  /** The store's URL (a `schema` query parameter is dropped here and named in `channel` instead). */
  readonly url: string
  /** A plain identifier ([a-z0-9_]). */
  readonly channel: string
  readonly instanceId: string
  readonly bus: ChangeBus
  readonly onError: (error: unknown) => void
  readonly reconnectMs?: number
}

export async function startPostgresChangeTransport(options: PostgresChangeTransportOptions): Promise<ChangeTransport> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.channel)) throw new Error(`invalid NOTIFY channel "${options.channel}"`)
  const url = new URL(options.url)
  url.searchParams.delete('schema')
  let client: pg.Client | null = null
  let closed = false
  let timer: NodeJS.Timeout | null = null

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 })
    next.on('error', (error) => drop(next, error))
    next.on('end', () => drop(next, null))
    next.on('notification', (notification) => {
      if (notification.channel !== options.channel || notification.payload === undefined) return
      const message = decodeChangeMessage(notification.payload)
      if (message === null || message.instanceId === options.instanceId) return
      options.bus.receive(message.topic, message.entityId)
    })
    try {
      await next.connect()
      await next.query(`LISTEN "${options.channel}"`)
      if (closed) await next.end()
      else client = next
    } catch (error) {
      drop(next, error)
    }
  }

  function drop(which: pg.Client, error: unknown): void {
    if (error !== null) options.onError(error)
    which.removeAllListeners('end')
    void which.end().catch(() => undefined)
    if (client === which) client = null
    if (closed || timer !== null) return
    timer = setTimeout(() => {
      timer = null
      void connect()
    }, options.reconnectMs ?? 1_000)
    timer.unref()
  }

  await connect()
  forwardLocalChanges(options, () => client)
  return {
    kind: 'postgres',
    close: async () => {
      closed = true
      if (timer !== null) clearTimeout(timer)
      const current = client
      client = null
      current?.removeAllListeners('end')
      await current?.end().catch(() => undefined)
    },
  }
}

/** Publishes this instance's changes with NOTIFY on whichever connection is current. */
function forwardLocalChanges(options: PostgresChangeTransportOptions, current: () => pg.Client | null): void {
  // One query at a time on the connection: a change often publishes several topics in one tick, and
  // pg deprecates (and pg 9 refuses) a query issued while another is still running on the client.
  let sending: Promise<unknown> = Promise.resolve()
  options.bus.connect((topic, entityId) => {
    const payload = encodeChangeMessage({ instanceId: options.instanceId, topic, entityId })
    sending = sending
      .then(() => current()?.query('select pg_notify($1, $2)', [options.channel, payload]))
      .catch(options.onError)
  })
}
