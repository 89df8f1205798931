// Child process: the Portkey AI gateway (`@portkey-ai/gateway`, installed outside this repository, see
// docs/performance.md) as a third target of `--instructions`. Its own start script runs in this process
// on a free port, headless; this file only adds the benchmark's child protocol, as bare-proxy.ts does.
// Requests name the fake upstream per request (`x-portkey-custom-host`), so `info.customHost` tells the
// scenarios where it is.
import { createServer, connect, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { serveChildProtocol } from './child-process.ts'

const { values } = parseArgs({ options: { portkey: { type: 'string' }, upstream: { type: 'string' } } })
if (values.portkey === undefined || values.upstream === undefined)
  throw new Error('portkey-server: --portkey <install dir> and --upstream <url> are required')

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

// Portkey 1.15 appends its headers to the upstream's fetch Response, whose headers Node 20 makes
// immutable: every answer but a plain chat completion fails with `TypeError: immutable`. Each fetch
// answer is re-wrapped in a Response with mutable headers (one object and a header copy per request,
// counted in Portkey's figures).
const upstreamFetch = globalThis.fetch
globalThis.fetch = async (input, init) => {
  const answer = await upstreamFetch(input, init)
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: answer.headers })
}

const port = await freePort()
process.argv.push(`--port=${port}`, '--headless')
const script = join(values.portkey, 'node_modules/@portkey-ai/gateway/build/start-server.js')
await import(pathToFileURL(script).href)
while (!(await accepts(port))) await new Promise((resolve) => setTimeout(resolve, 50))
serveChildProtocol(port, async () => {}, { customHost: `${values.upstream}/v1` })
