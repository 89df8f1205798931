// A TCP forwarder a test can cut and restore, to take a service (PostgreSQL, Redis) away from a
// running gateway and give it back on the same address, without touching the shared service itself.
import net from 'node:net'

export interface TcpProxy {
  readonly port: number
  /** Refuses new connections and drops the open ones. */
  cut(): Promise<void>
  /** Listens again on the same port (no-op while listening). */
  restore(): Promise<void>
  close(): Promise<void>
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>()
  const create = () =>
    net.createServer((client) => {
      const upstream = net.connect(targetPort, targetHost)
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
        socket.on('error', () => undefined)
      }
      client.pipe(upstream).pipe(client)
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
  let server = create()
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port))
    })
  const port = await listen(0)
  const cut = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      for (const socket of sockets) socket.destroy()
    })
  }
  return {
    port,
    cut,
    restore: async () => {
      if (server.listening) return
      server = create()
      await listen(port)
    },
    close: async () => {
      if (server.listening) await cut()
    },
  }
}
