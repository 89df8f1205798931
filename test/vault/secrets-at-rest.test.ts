// Values are encrypted at rest and never logged: after storing, replacing, copying and failing to store
// a canary value, neither the SQLite files nor the captured logs (at trace level) contain it. Then
// `switchyard vault rotate-master-key` re-wraps every vault key: the new master key opens the vaults,
// the old one no longer does.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { randomBytes } from 'node:crypto'
import pino from 'pino'
import { loadConfig } from '../../src/config/load-config.ts'
import { assembleGateway } from '../../src/gateway.ts'
import { systemClock } from '../../src/domain/clock.ts'
import { runCommand } from '../../src/cli/run-command.ts'
import { createSqliteDatabase, type TestDatabase } from '../support/test-store.ts'
import { RunningTestGateway, testAdminKey, type TestGateway } from '../support/test-gateway.ts'
import { call, createInternVia, mintKey, secretBody } from '../interns/intern-test-kit.ts'

function collector(): { stream: Writable; text: () => string } {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk))
      done()
    },
  })
  return { stream, text: () => chunks.join('') }
}

const envFor = (database: TestDatabase, masterKey: string) => ({
  DATABASE_URL: database.url,
  SWITCHYARD_ADMIN_KEY: testAdminKey,
  SWITCHYARD_MASTER_KEY: masterKey,
  LOG_LEVEL: 'trace',
})

async function start(database: TestDatabase, masterKey: string, logs: Writable): Promise<TestGateway> {
  const config = loadConfig({ env: envFor(database, masterKey), cwd: database.directory })
  const { gateway, parts } = await assembleGateway({
    config,
    clock: systemClock,
    logger: pino({ level: 'trace' }, logs),
  })
  // The store outlives each start: the test restarts on it and reads its files afterwards.
  return new RunningTestGateway(gateway, parts, { ...database, dispose: async () => undefined }, config)
}

function storeFiles(database: TestDatabase): Buffer {
  return Buffer.concat(readdirSync(database.directory).map((name) => readFileSync(join(database.directory, name))))
}

test('stored values appear in no database file and no log line; rotation re-wraps every vault key', async () => {
  const database = createSqliteDatabase()
  const oldKey = randomBytes(32).toString('base64')
  const logs = collector()
  const canary = `canary-${randomBytes(12).toString('hex')}`
  const gateway = await start(database, oldKey, logs.stream)
  let internId: string
  try {
    const key = await mintKey(gateway, 'inference', gateway.gateway.bootstrap.defaultWorkspaceId)
    const intern = await createInternVia(gateway, key, { name: 'at-rest' })
    internId = intern.id
    assert.equal(
      (
        await call(gateway, key, {
          method: 'PUT',
          url: '/api/v1/vault/secrets/canary_secret',
          body: secretBody(canary),
        })
      ).status,
      200,
    )
    assert.equal(
      (
        await call(gateway, key, {
          method: 'PUT',
          url: `/api/v1/vault/interns/${intern.id}/secrets/canary_secret`,
          body: secretBody(`${canary}-intern`),
        })
      ).status,
      200,
    )
    assert.equal(
      (
        await call(gateway, key, {
          method: 'POST',
          url: `/api/v1/vault/interns/${intern.id}/secrets/copy`,
          body: { names: ['canary_secret'] },
        })
      ).status,
      200,
    )
    const refused = await call(gateway, key, {
      method: 'PUT',
      url: '/api/v1/vault/secrets/refused',
      body: secretBody(canary, ['https://bad.example.com']),
    })
    assert.equal(refused.status, 400)
    assert.ok(!refused.text.includes(canary))
    const tooLong = await call(gateway, key, {
      method: 'PUT',
      url: '/api/v1/vault/secrets/refused',
      body: secretBody(canary.repeat(3000)),
    })
    assert.equal(tooLong.status, 400)
    assert.ok(!tooLong.text.includes(canary))
  } finally {
    await gateway.close()
  }
  const files = storeFiles(database)
  assert.ok(files.includes('canary_secret'), 'the grep sees what the store holds (secret names are not secret)')
  assert.ok(!files.includes(canary), 'the value is nowhere in the SQLite files')
  assert.ok(logs.text().length > 0, 'logs were captured')
  assert.ok(!logs.text().includes(canary), 'the value is in no log line')

  const newKey = randomBytes(32).toString('base64')
  const output = collector()
  const errors = collector()
  const config = loadConfig({ env: envFor(database, oldKey), cwd: database.directory })
  const context = {
    config,
    clock: systemClock,
    stdout: output.stream,
    stderr: errors.stream,
    onSignal: () => undefined,
  }
  assert.equal(
    await runCommand(['vault', 'rotate-master-key'], context),
    2,
    'refused without SWITCHYARD_NEW_MASTER_KEY',
  )
  assert.match(errors.text(), /SWITCHYARD_NEW_MASTER_KEY/)
  assert.equal(
    await runCommand(['vault', 'rotate-master-key'], { ...context, env: { SWITCHYARD_NEW_MASTER_KEY: newKey } }),
    0,
    errors.text(),
  )
  assert.match(output.text(), /re-wrapped the keys of 2 vault\(s\)/)
  assert.match(output.text(), /set SWITCHYARD_MASTER_KEY to the value of SWITCHYARD_NEW_MASTER_KEY/)
  assert.ok(!output.text().includes(newKey), 'the new key is not printed')

  const copyUnder = async (masterKey: string): Promise<number> => {
    const restarted = await start(database, masterKey, collector().stream)
    try {
      const key = await mintKey(restarted, 'inference', restarted.gateway.bootstrap.defaultWorkspaceId)
      return (
        await call(restarted, key, {
          method: 'POST',
          url: `/api/v1/vault/interns/${internId}/secrets/copy`,
          body: { names: ['canary_secret'] },
        })
      ).status
    } finally {
      await restarted.close()
    }
  }
  assert.equal(await copyUnder(newKey), 200, 'the new master key opens the re-wrapped vault keys')
  assert.equal(await copyUnder(oldKey), 500, 'the old master key no longer does')
  await database.dispose()
})
