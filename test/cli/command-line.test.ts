// The command line as users run it: real processes, real store files.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { createSqliteDatabase } from '../support/test-store.ts'

const root = join(import.meta.dirname, '..', '..')
const cli = ['--import', 'tsx', join(root, 'src', 'main.ts')]

function run(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...cli, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

test('migrate, keys create and config print', async () => {
  const database = createSqliteDatabase()
  const env = { DATABASE_URL: database.url, OPENAI_API_KEY: 'sk-openai-do-not-print' }
  const migrated = run(['migrate'], env)
  assert.equal(migrated.status, 0, migrated.stderr)
  assert.match(migrated.stdout, /applied: 0001-identity/)
  assert.match(run(['migrate'], env).stdout, /store is up to date/)

  const created = run(['keys', 'create', '--management', '--name', 'ops'], env)
  assert.equal(created.status, 0, created.stderr)
  const plaintext = created.stdout.trim()
  assert.match(plaintext, /^sk-sy-v1-[0-9a-f]{64}$/)

  const printed = run(['config', 'print'], env)
  assert.equal(printed.status, 0)
  assert.match(printed.stdout, /OPENAI_API_KEY: "?\[redacted\]"?/)
  assert.ok(!printed.stdout.includes('sk-openai-do-not-print'))

  const unknown = run(['frobnicate'], env)
  assert.equal(unknown.status, 2)
  assert.match(unknown.stderr, /unknown command "frobnicate"/)
  await database.dispose()
})

test('--help, -h and help print every command, one line each, and exit 0 whatever the environment; the README lists them all', () => {
  const commands = [
    'serve',
    'migrate',
    'keys create',
    'config print',
    'credits grant',
    'ledger rebuild-counters',
    'vault rotate-master-key',
    'doctor',
  ]
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  for (const flag of ['--help', '-h', 'help']) {
    // A config that serve refuses does not stop the help.
    const result = run([flag], { PORT: 'eighty' })
    assert.equal(result.status, 0, result.stderr)
    const lines = result.stdout.split('\n')
    for (const command of commands) {
      const described = lines.filter((line) => new RegExp(`^  ${command}( |$)`).test(line))
      assert.equal(described.length, 1, `${flag}: one line for ${command}\n${result.stdout}`)
      assert.match(described[0] ?? '', /\S {2,}\S/, `${command} has a description on its line`)
    }
  }
  for (const command of commands) assert.ok(readme.includes(`| \`${command}`), `README command table lists ${command}`)
})

test('plaintext keys are never stored: the database files hold only their SHA-256', async () => {
  const database = createSqliteDatabase()
  const env = { DATABASE_URL: database.url }
  const keys = [run(['keys', 'create'], env).stdout.trim(), run(['keys', 'create', '--management'], env).stdout.trim()]
  const files = readdirSync(database.directory).map((name) => readFileSync(join(database.directory, name)))
  const bytes = Buffer.concat(files)
  for (const key of keys) {
    assert.match(key, /^sk-sy-v1-/)
    assert.equal(bytes.indexOf(key), -1, 'plaintext key found in the store')
    assert.equal(bytes.indexOf(key.slice('sk-sy-v1-'.length)), -1, 'key body found in the store')
    const { createHash } = await import('node:crypto')
    assert.notEqual(bytes.indexOf(createHash('sha256').update(key).digest('hex')), -1, 'hash not found')
  }
  await database.dispose()
})

test('a bad config exits 2 and names every problem', () => {
  const database = createSqliteDatabase()
  const result = run(['serve'], { DATABASE_URL: database.url, PORT: 'eighty', LOG_LEVEL: 'chatty' })
  assert.equal(result.status, 2)
  assert.match(result.stderr, /PORT: must be an integer/)
  assert.match(result.stderr, /LOG_LEVEL: must be one of/)
})

function storedGeneration(file: string, id: string): boolean {
  const database = new Database(file, { readonly: true })
  try {
    return database.prepare('select id from generations where id = ?').get(id) !== undefined
  } finally {
    database.close()
  }
}

/**
 * Starts `serve` with `command` (node's arguments), checks the startup output, the README example and
 * one inference call (refused, as no provider serves its model, but recorded), whose generation record
 * is read back after the write-behind committed it (on a SQLite file, through the write worker's
 * thread), then stops it with SIGTERM.
 */
async function assertServes(command: readonly string[]): Promise<void> {
  const database = createSqliteDatabase()
  const child = spawn(process.execPath, command, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const deadline = Date.now() + 60_000
  while (!/sk-sy-v1-[0-9a-f]{64}/.test(output) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50))
  const address = /listening on (http:\/\/[^\s]+)/.exec(output)?.[1]
  const key = /sk-sy-v1-[0-9a-f]{64}/.exec(output)?.[0]
  assert.ok(address !== undefined && key !== undefined, output)
  const response = await fetch(`${address}/api/v1/organization/members`, {
    headers: { authorization: `Bearer ${key}` },
  })
  assert.equal(response.status, 200)
  const body = (await response.json()) as { data: { email: string }[]; total_count: number }
  assert.equal(body.total_count, 1)
  assert.equal(body.data[0]?.email, 'owner@localhost')

  const created = await fetch(`${address}/api/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'app' }),
  })
  assert.equal(created.status, 201)
  const appKey = ((await created.json()) as { key: string }).key
  const inference = await fetch(`${address}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${appKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'nobody/no-model', messages: [{ role: 'user', content: 'hi' }] }),
  })
  assert.equal(inference.status, 404, await inference.text())
  const generationId = inference.headers.get('x-generation-id')
  assert.match(generationId ?? '', /^gen-/)
  // The record is served while it waits in memory; it reaches the file through the write worker.
  const generation = await fetch(`${address}/api/v1/generation?id=${generationId}`, {
    headers: { authorization: `Bearer ${appKey}` },
  })
  assert.equal(generation.status, 200)
  let stored = false
  while (!stored && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    stored = storedGeneration(database.sqlitePath!, generationId!)
  }
  assert.ok(stored, 'the generation record reached the store')

  child.kill('SIGTERM')
  assert.equal(await exited, 0, output)
  await database.dispose()
}

test('serve: prints where it listens and the first management key, answers the README example and an inference call, stops on SIGTERM', async () => {
  await assertServes([...cli, 'serve'])
})

test('npm start: its prestart builds dist/switchyard.mjs, and plain Node serves from that bundle', async () => {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts
  const nodeArgs = (script: string | undefined): string[] => {
    const [program, ...args] = (script ?? '').split(' ')
    assert.equal(program, 'node', `an npm script run with node: ${script}`)
    return args
  }
  const built = spawnSync(process.execPath, nodeArgs(scripts.prestart), {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  })
  assert.equal(built.status, 0, built.stderr)
  const command = nodeArgs(scripts.start)
  assert.ok(command.includes('dist/switchyard.mjs'), 'npm start runs the bundle')
  await assertServes(command)
})
