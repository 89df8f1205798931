// A redis-server of the test's own on a spare port, for tests that stop and restart Redis (the shared
// one on 6379 must stay up for the other suites). Tests skip when redis-server is not installed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import { waitFor } from './wait-for.ts'

export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0

export async function sparePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** Starts redis-server on `port` (nothing kept on disk) and resolves once it accepts connections. */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: 'ignore' },
  )
  await waitFor(async () => {
    const socket = net.connect(port, '127.0.0.1')
    const connected = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true))
      socket.once('error', () => resolve(false))
    }).finally(() => socket.destroy())
    return connected ? true : undefined
  }, 'redis-server to accept connections')
  return child
}

export async function stopRedisServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}
