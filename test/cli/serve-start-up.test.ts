// `serve` as operators start it: the bundle `npm start` runs (scripts/build.mjs), as a child process in
// an empty directory with only the environment it is given.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundle } from '../../scripts/build.mjs'

const root = join(import.meta.dirname, '..', '..')
// A bundle of its own, so a test building dist/switchyard.mjs at the same time cannot change it under this one.
const bundleFile = join(root, 'dist', `serve-start-up-test-${process.pid}.mjs`)
let workDirectory: string
const children = new Set<ChildProcess>()
// Generous for a loaded machine (a start takes about a second), and small enough that the three tests
// time out, and the after hook stops their children, before the runner's 300 s limit on the whole file.
const startTimeoutMs = 80_000

before(async () => {
  await bundle('src/main.ts', bundleFile)
  workDirectory = mkdtempSync(join(tmpdir(), 'serve-start-up-'))
})
after(() => {
  // A child that did not stop (the failure these tests catch) must not outlive the test run.
  for (const child of children) child.kill('SIGKILL')
  rmSync(bundleFile, { force: true })
  rmSync(`${bundleFile}.map`, { force: true })
  rmSync(workDirectory, { recursive: true, force: true })
})

interface Serve {
  readonly exited: Promise<number | null>
  output(): string
  stop(): void
}

function serve(env: Record<string, string>): Serve {
  const child = spawn(process.execPath, ['--enable-source-maps', bundleFile, 'serve'], {
    cwd: workDirectory,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: `sqlite:${join(workDirectory, `${process.hrtime.bigint()}.db`)}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  child.on('exit', () => children.delete(child))
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { exited, output: () => output, stop: () => child.kill('SIGTERM') }
}

async function outputMatching(server: Serve, pattern: RegExp): Promise<string> {
  let exited = false
  void server.exited.then(() => (exited = true))
  while (!pattern.test(server.output()) && !exited) await new Promise((resolve) => setTimeout(resolve, 50))
  assert.match(server.output(), pattern)
  return server.output()
}

test(
  'a port already in use: serve exits non-zero with one line naming the port and the fix, no stack trace',
  { timeout: startTimeoutMs },
  async () => {
    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    const port = (holder.address() as AddressInfo).port
    try {
      const server = serve({ HOST: '127.0.0.1', PORT: String(port) })
      const code = await server.exited
      const output = server.output()
      assert.notEqual(code, 0, output)
      assert.equal(code, 1, output)
      const line = `switchyard: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE); set PORT or stop the other process`
      assert.equal(
        output
          .split('\n')
          .filter((text) => text.includes('EADDRINUSE'))
          .join('\n'),
        line,
      )
      assert.doesNotMatch(output, /^\s+at /m, 'no stack trace')
      assert.doesNotMatch(output, /listening on/)
    } finally {
      holder.close()
    }
  },
)

test(
  'a fresh install with no provider: the banner says none is loaded and how to add one',
  { timeout: startTimeoutMs },
  async () => {
    const server = serve({ HOST: '127.0.0.1', PORT: '0' })
    try {
      const output = await outputMatching(server, /SWITCHYARD_CONFIG[^\n]*\n/)
      assert.match(
        output,
        /Switchyard listening on http:\/\/127\.0\.0\.1:\d+ \(store: sqlite\)\nLoaded 0 providers and 0 models\./,
      )
      assert.match(output, /No provider is configured[^\n]*\n.*OPENAI_API_KEY/)
    } finally {
      server.stop()
    }
    assert.equal(await server.exited, 0, server.output())
  },
)

test(
  'a provider key in the environment: the banner counts its provider and models',
  { timeout: startTimeoutMs },
  async () => {
    const server = serve({ HOST: '127.0.0.1', PORT: '0', ANTHROPIC_API_KEY: 'sk-ant-test' })
    try {
      const output = await outputMatching(server, /Loaded [^\n]*\n/)
      assert.match(output, /Loaded 1 provider \(anthropic\) and [1-9]\d* models\./)
      assert.doesNotMatch(output, /No provider is configured/)
    } finally {
      server.stop()
    }
    assert.equal(await server.exited, 0, server.output())
  },
)

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as AddressInfo).port
  await new Promise((resolve) => probe.close(resolve))
  return port
}

test(
  'metrics.port: /metrics moves to its own listener and the main port answers 404',
  { timeout: startTimeoutMs },
  async () => {
    const metricsPort = await freePort()
    const configFile = join(workDirectory, 'metrics-port.yaml')
    writeFileSync(configFile, `metrics:\n  port: ${metricsPort}\n  host: 127.0.0.1\n`)
    const server = serve({ HOST: '127.0.0.1', PORT: '0', SWITCHYARD_CONFIG: configFile })
    try {
      const output = await outputMatching(server, /Metrics on [^\n]*\n/)
      assert.match(output, new RegExp(`Metrics on http://127\\.0\\.0\\.1:${metricsPort}/metrics only\\.`))
      const main = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!
      assert.equal((await fetch(`${main}/metrics`)).status, 404)
      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
      assert.equal(scraped.status, 200)
      assert.match(await scraped.text(), /^# TYPE switchyard_tokens_total counter$/m)
    } finally {
      server.stop()
    }
    assert.equal(await server.exited, 0, server.output())
  },
)

test('metrics.port in use: serve exits 1 with one line naming metrics.port', { timeout: startTimeoutMs }, async () => {
  const holder = createServer()
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
  const port = (holder.address() as AddressInfo).port
  const configFile = join(workDirectory, 'metrics-port-taken.yaml')
  writeFileSync(configFile, `metrics: { port: ${port}, host: 127.0.0.1 }\n`)
  try {
    const server = serve({ HOST: '127.0.0.1', PORT: '0', SWITCHYARD_CONFIG: configFile })
    assert.equal(await server.exited, 1, server.output())
    assert.match(
      server.output(),
      new RegExp(
        `^switchyard: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use \\(EADDRINUSE\\); set metrics\\.port or stop the other process$`,
        'm',
      ),
    )
    assert.doesNotMatch(server.output(), /^\s+at /m, 'no stack trace')
  } finally {
    holder.close()
  }
})

test(
  'Redis unreachable: serve exits 1 with one line naming REDIS_URL without its password and the fix',
  { timeout: startTimeoutMs },
  async () => {
    // Port 1 needs privileges to listen on: nothing answers there.
    const server = serve({ HOST: '127.0.0.1', PORT: '0', REDIS_URL: 'redis://someone:s3cret@127.0.0.1:1' })
    assert.equal(await server.exited, 1, server.output())
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('REDIS_URL'))
    assert.deepEqual(lines, [
      'switchyard: cannot start: Redis at REDIS_URL (redis://someone:***@127.0.0.1:1) did not answer: ' +
        'connect ECONNREFUSED 127.0.0.1:1; start Redis or correct REDIS_URL ' +
        '(unset it to run a single instance with counters in memory)',
    ])
    assert.doesNotMatch(server.output(), /s3cret/)
    assert.doesNotMatch(server.output(), /^\s+at /m, 'no stack trace')
    assert.doesNotMatch(server.output(), /listening on/)
  },
)
