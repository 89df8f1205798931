// Credits over HTTP and the CLI: grants add to total_credits, settled non-BYOK spend is total_usage,
// the deprecated POST /credits/:provider still answers 410 beside POST /credits/grants, and with
// credits.enforce a reservation past the balance is refused with 402.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { createSqliteDatabase } from '../support/test-store.ts'
import { createApiKeysRepository } from '../../src/store/repositories/api-keys-repository.ts'
import { hashKeySecret } from '../../src/identity/api-key-secret.ts'
import { isGatewayError } from '../../src/domain/errors.ts'

let gateway: TestGateway
before(async () => {
  gateway = await startTestGateway({ yaml: 'credits:\n  enforce: true\n' })
})
after(() => gateway.close())

async function credits(): Promise<{ total_credits: number; total_usage: number }> {
  const response = await gateway.inject({ method: 'GET', url: '/api/v1/credits', headers: bearer(gateway.adminKey) })
  assert.equal(response.statusCode, 200)
  return (response.json() as { data: { total_credits: number; total_usage: number } }).data
}

/** What POST /credits/grants answers: the new balance, or the error envelope. */
interface GrantJson {
  readonly data?: { readonly total_credits: number; readonly total_usage: number }
  readonly error?: { readonly code: number; readonly message: string }
}

async function grant(payload: unknown): Promise<{ status: number; json: GrantJson }> {
  const response = await gateway.inject({
    method: 'POST',
    url: '/api/v1/credits/grants',
    headers: bearer(gateway.adminKey),
    payload: payload as object,
  })
  return { status: response.statusCode, json: response.json() }
}

async function inferenceKey() {
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'spender' },
  })
  const plaintext = (created.json() as { key: string }).key
  const record = await createApiKeysRepository(gateway.store.db).findByHash(hashKeySecret(plaintext))
  assert.ok(record !== undefined)
  return { plaintext, record }
}

test('grants add to total_credits; settled spend is total_usage; enforcement refuses past the balance', async () => {
  assert.deepEqual(await credits(), { total_credits: 0, total_usage: 0 })
  const { record } = await inferenceKey()
  // internals: reserves and settles exact spend without an upstream; the API only reads the balance.
  const accounting = gateway.internals.accounting.service
  await assert.rejects(
    accounting.reserve({ key: record, generationId: 'gen-c0', attempt: 1, worstCaseNano: 1n, isByok: false }),
    (error: unknown) => {
      assert.ok(isGatewayError(error) && error.status === 402)
      assert.match(error.message, /Insufficient credits: the balance is \$0\.00/)
      return true
    },
  )
  assert.deepEqual(await grant({ amount: 10, note: 'first' }), {
    status: 201,
    json: { data: { total_credits: 10, total_usage: 0 } },
  })
  assert.deepEqual((await grant({ amount: 2.5 })).json.data, { total_credits: 12.5, total_usage: 0 })
  const reservation = await accounting.reserve({
    key: record,
    generationId: 'gen-c1',
    attempt: 1,
    worstCaseNano: 5_000_000_000n,
    isByok: false,
  })
  await accounting.settle(reservation, { costNano: 1_234_567_890n, model: 'acme/fast-1', provider: 'acme' })
  assert.deepEqual(await credits(), { total_credits: 12.5, total_usage: 1.23456789 })
  await assert.rejects(
    accounting.reserve({
      key: record,
      generationId: 'gen-c2',
      attempt: 1,
      worstCaseNano: 11_300_000_000n,
      isByok: false,
    }),
    /balance is \$11\.26543211/,
  )
})

test('grant bodies: amount must be a number > 0; unknown fields refused', async () => {
  for (const body of [
    { amount: 0 },
    { amount: -1 },
    { amount: '5' },
    {},
    { amount: 1, currency: 'EUR' },
    { amount: 0.0000000001 },
  ]) {
    const result = await grant(body)
    assert.equal(result.status, 400, JSON.stringify(body))
    assert.equal(result.json.error?.code, 400)
  }
})

test('credits routes need a management key; the deprecated POST /credits/:provider still answers 410', async () => {
  const { plaintext } = await inferenceKey()
  assert.equal(
    (await gateway.inject({ method: 'GET', url: '/api/v1/credits', headers: bearer(plaintext) })).statusCode,
    403,
  )
  assert.equal(
    (
      await gateway.inject({
        method: 'POST',
        url: '/api/v1/credits/grants',
        headers: bearer(plaintext),
        payload: { amount: 1 },
      })
    ).statusCode,
    403,
  )
  assert.equal((await gateway.inject({ method: 'GET', url: '/api/v1/credits' })).statusCode, 401)
  const coinbase = await gateway.inject({ method: 'POST', url: '/api/v1/credits/coinbase' })
  assert.equal(coinbase.statusCode, 410)
  assert.match((coinbase.json() as { error: { message: string } }).error.message, /Coinbase/)
  assert.equal((await grant({ amount: 1 })).status, 201)
})

test('CLI: credits grant adds to the balance the gateway reports', async () => {
  const database = createSqliteDatabase()
  const root = join(import.meta.dirname, '..', '..')
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src', 'main.ts'), ...args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', DATABASE_URL: database.url },
      encoding: 'utf8',
      timeout: 60_000,
    })
  const granted = run(['credits', 'grant', '25.5', '--note', 'invoice 7'])
  assert.equal(granted.status, 0, granted.stderr)
  assert.equal(granted.stdout, 'granted $25.50; total credits $25.50\n')
  assert.equal(run(['credits', 'grant', '-3']).status, 2)
  assert.equal(run(['credits', 'grant']).status, 2)
  const rebuild = run(['ledger', 'rebuild-counters'])
  assert.equal(rebuild.status, 0, rebuild.stderr)
  assert.match(rebuild.stdout, /rebuilt from the ledger at every start/)
  const started = await startTestGateway({ databaseUrl: database.url })
  try {
    const response = await started.inject({ method: 'GET', url: '/api/v1/credits', headers: bearer(started.adminKey) })
    assert.deepEqual(response.json(), { data: { total_credits: 25.5, total_usage: 0 } })
  } finally {
    await started.close()
    await database.dispose()
  }
})
