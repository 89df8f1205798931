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
    assert.match(failing.stdout, /^provider alive\s+ok\s+GET .*\/v1\/models -> HTTP 200: credentials accepted/m)
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

test("doctor calls each provider's model list with its credential: a rejected key fails naming where to set it", async () => {
  const database = createSqliteDatabase()
  const upstreams = await Promise.all(
    (['openai-chat', 'anthropic', 'gemini', 'openai-responses'] as const).map((api) =>
      startFakeUpstream({ api, apiKey: `right-${api}` }),
    ),
  )
  const [chat, anthropic, gemini, responses] = upstreams
  try {
    const config = join(database.directory, 'switchyard.yaml')
    writeFileSync(
      config,
      'providers:\n' +
        `  - { slug: chat, api: openai-chat, base_url: "${chat!.url}", api_key: right-openai-chat }\n` +
        `  - { slug: claude, api: anthropic, base_url: "${anthropic!.url}", api_key: right-anthropic }\n` +
        `  - { slug: gem, api: gemini, base_url: "${gemini!.url}", api_key: wrong-gemini-key-123 }\n` +
        `  - { slug: keyless, api: openai-responses, base_url: "${responses!.url}" }\n`,
    )
    const result = await doctor({ DATABASE_URL: database.url, SWITCHYARD_CONFIG: config })
    assert.equal(result.status, 1, result.stdout)
    assert.match(result.stdout, /^provider chat\s+ok\s+GET .*\/v1\/models -> HTTP 200: credentials accepted/m)
    assert.match(result.stdout, /^provider claude\s+ok\s+GET .*\/v1\/models -> HTTP 200: credentials accepted/m)
    assert.match(
      result.stdout,
      /^provider gem\s+fail\s+GET .*\/v1beta\/models -> HTTP 401 \(Invalid API key\): the credentials were rejected; set providers\[2\]\.api_key in .*switchyard\.yaml$/m,
    )
    assert.match(
      result.stdout,
      /^provider keyless\s+fail\s+.*HTTP 401 .*no API key is configured; .*set providers\[3\]\.api_key in /m,
    )
    assert.doesNotMatch(result.stdout, /wrong-gemini-key-123/)
    assert.match(result.stdout, /2 check\(s\) failed/)
    // Each fake saw the credential in its API's own header on a GET of its model list.
    for (const upstream of upstreams) assert.ok(upstream.requests.some((request) => request.method === 'GET'))
    assert.equal(anthropic!.requests[0]?.headers['x-api-key'], 'right-anthropic')
    assert.equal(gemini!.requests[0]?.headers['x-goog-api-key'], 'wrong-gemini-key-123')
  } finally {
    await Promise.all(upstreams.map((upstream) => upstream.close()))
    await database.dispose()
  }
})
