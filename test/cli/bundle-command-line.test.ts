// The command line as `npm run switchyard` and an installed `switchyard` run it: bin/switchyard.mjs, which
// runs the bundle (dist/switchyard.mjs, built when missing or stale) with plain Node. --help loads none of
// the gateway's modules; its time is measured and reported, never asserted. keys create takes a name and
// a spending limit with its reset, and refuses a wrong one naming what it takes.
import { test, before } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { createSqliteDatabase } from '../support/test-store.ts'

const root = join(import.meta.dirname, '..', '..')
const bin = join(root, 'bin', 'switchyard.mjs')

function run(args: string[], env: Record<string, string> = {}) {
  const started = process.hrtime.bigint()
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  })
  const milliseconds = Number(process.hrtime.bigint() - started) / 1e6
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, milliseconds }
}

before(() => {
  // The first call builds the bundle when it is missing or older than the sources.
  const first = run(['--help'])
  assert.equal(first.status, 0, first.stderr)
})

test('--help runs from the bundle, which is at least as new as every source; its time is reported', (t) => {
  const bundle = join(root, 'dist', 'switchyard.mjs')
  assert.ok(existsSync(bundle))
  assert.ok(statSync(bundle).mtimeMs >= statSync(join(root, 'src', 'main.ts')).mtimeMs)
  const times: number[] = []
  for (let round = 0; round < 3; round++) {
    const result = run(['--help'])
    assert.equal(result.status, 0, result.stderr)
    assert.match(result.stdout, /^usage: switchyard <command>/)
    assert.match(result.stdout, /--limit <usd>/)
    times.push(result.milliseconds)
  }
  t.diagnostic(`switchyard --help from the bundle: ${times.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`)
})

test('keys create --name --limit --limit-reset stores the key with its limit; a wrong option is refused with exit 2', async () => {
  const database = createSqliteDatabase()
  try {
    const env = { DATABASE_URL: database.url }
    const created = run(
      ['keys', 'create', '--name', 'nightly jobs', '--limit', '12.50', '--limit-reset', 'weekly'],
      env,
    )
    assert.equal(created.status, 0, created.stderr)
    const plaintext = created.stdout.trim()
    assert.match(plaintext, /^sk-sy-v1-[0-9a-f]{64}$/)
    const file = database.url.slice('sqlite:'.length)
    const sqlite = new Database(file, { readonly: true })
    try {
      const row = sqlite
        .prepare('select name, kind, limit_usd, limit_reset from api_keys where hash = ?')
        .get(createHash('sha256').update(plaintext).digest('hex'))
      assert.deepEqual(row, { name: 'nightly jobs', kind: 'inference', limit_usd: '12.5', limit_reset: 'weekly' })
    } finally {
      sqlite.close()
    }

    const badReset = run(['keys', 'create', '--limit', '5', '--limit-reset', 'hourly'], env)
    assert.equal(badReset.status, 2)
    assert.equal(badReset.stderr, '--limit-reset takes daily, weekly, monthly (got "hourly")\n')
    const badLimit = run(['keys', 'create', '--limit', 'ten'], env)
    assert.equal(badLimit.status, 2)
    assert.match(badLimit.stderr, /^--limit takes a spending limit in USD/)
    const management = run(['keys', 'create', '--management', '--limit', '5'], env)
    assert.equal(management.status, 2)
    assert.match(management.stderr, /inference keys, not --management/)
  } finally {
    await database.dispose()
  }
})
