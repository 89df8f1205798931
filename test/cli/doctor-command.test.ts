// `switchyard doctor` as users run it: a real process against a real store, a reachable fake provider
// and an address that refuses connections.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import net from 'node:net'
import { createSqliteDatabase } from '../support/test-store.ts'
import { startFakeUpstream } from '../fake-upstreams/fake-upstream.ts'

const root = join(import.meta.dirname, '..', '..')
const cli = ['--import', 'tsx', join(root, 'src', 'main.ts')]

async function refusedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** Runs `switchyard doctor` without blocking this process, so the fake provider can answer it. */
function doctor(env: Record<string, string>): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cli, 'doctor'], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.once('error', reject)
    child.once('close', (status) => resolve({ status, stdout }))
  })
}

test('doctor prints a table and exits 1 when Redis or a provider is unreachable', async () => {
  const database = createSqliteDatabase()
  const upstream = await startFakeUpstream({ api: 'openai-chat' })
  const deadPort = await refusedPort()
  try {
    const config = join(database.directory, 'switchyard.yaml')
    writeFileSync(
      config,
      `providers:\n  - { slug: alive, name: Alive, api: openai-chat, base_url: "${upstream.url}", api_key: k }\n  - { slug: dead, name: Dead, api: openai-chat, base_url: "http://127.0.0.1:${deadPort}/v1", api_key: k }\n`,
    )
    const failing = await doctor({
      DATABASE_URL: database.url,
      SWITCHYARD_CONFIG: config,
      REDIS_URL: `redis://127.0.0.1:${deadPort}`,
    })
    assert.equal(failing.status, 1, failing.stdout)
    assert.match(failing.stdout, /^CHECK\s+STATUS\s+DETAIL$/m)
    assert.match(failing.stdout, /^config\s+ok\s/m)
    assert.match(failing.stdout, /^store\s+ok\s+sqlite answers/m)
    assert.match(failing.stdout, /^redis\s+fail\s/m)
    assert.match(failing.stdout, /^provider alive\s+ok\s+.*answered HTTP \d{3}/m)
    assert.match(failing.stdout, /^provider dead\s+fail\s/m)
    assert.match(failing.stdout, /2 check\(s\) failed/)

    writeFileSync(
      config,
      `providers:\n  - { slug: alive, name: Alive, api: openai-chat, base_url: "${upstream.url}", api_key: k }\n`,
    )
    const passing = await doctor({ DATABASE_URL: database.url, SWITCHYARD_CONFIG: config })
    assert.equal(passing.status, 0, passing.stdout)
    assert.match(passing.stdout, /^redis\s+skipped\s/m)
    assert.match(passing.stdout, /all checks passed/)
  } finally {
    await upstream.close()
    await database.dispose()
  }
})
