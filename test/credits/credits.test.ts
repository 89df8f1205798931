// Credits over HTTP and the CLI: grants add to total_credits, settled non-BYOK spend is total_usage,
// the deprecated POST /credits/:provider still answers 410 beside POST /credits/grants, and with
// credits.enforce a request whose reservation passes the balance is refused with 402 (chat completions
// against a fake upstream whose scripted usage gives exact costs).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { createSqliteDatabase } from '../support/test-store.ts'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'

let gateway: TestGateway
let upstream: FakeUpstream
before(async () => {
  upstream = await startFakeUpstream({ api: 'openai-chat' })
  // cheap: $0.00000001 a token, so 123,456,789 scripted output tokens cost exactly $1.23456789 (a cost is
  // capped by its reservation: max_tokens lets it through); dear: $1 an output token, so a request allowing
  // 12 output tokens reserves at least $12.
  gateway = await startTestGateway({
    yaml: `credits:\n  enforce: true\nproviders:\n  - { slug: acme, api: openai-chat, base_url: "${upstream.url}" }
models:
  - slug: acme/cheap
    endpoints:
      - { provider: acme, upstream_model_id: cheap-1, pricing: { prompt: "0.00000001", completion: "0.00000001" } }
  - slug: acme/dear
    endpoints:
      - { provider: acme, upstream_model_id: dear-1, pricing: { prompt: "0.00000001", completion: "1" } }
`,
  })
})
after(async () => {
  await gateway.close()
  await upstream.close()
})

/** A chat completion with the key; max_tokens bounds the reservation. */
async function spend(key: string, model: string, maxTokens: number) {
  return gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: { model, max_tokens: maxTokens, messages: [{ role: 'user', content: 'hi' }] },
  })
}

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
  return { plaintext: (created.json() as { key: string }).key }
}

test('grants add to total_credits; settled spend is total_usage; enforcement refuses past the balance', async () => {
  assert.deepEqual(await credits(), { total_credits: 0, total_usage: 0 })
  const { plaintext } = await inferenceKey()
  const broke = await spend(plaintext, 'acme/cheap', 10)
  assert.equal(broke.statusCode, 402, broke.body)
  assert.match(broke.body, /Insufficient credits: the balance is \$0\.00/)
  assert.deepEqual(await grant({ amount: 10, note: 'first' }), {
    status: 201,
    json: { data: { total_credits: 10, total_usage: 0 } },
  })
  assert.deepEqual((await grant({ amount: 2.5 })).json.data, { total_credits: 12.5, total_usage: 0 })
  upstream.script({ type: 'completion', text: 'ok', usage: { input_tokens: 0, output_tokens: 123_456_789 } })
  const paid = await spend(plaintext, 'acme/cheap', 200_000_000)
  assert.equal(paid.statusCode, 200, paid.body)
  await gateway.drained()
  assert.deepEqual(await credits(), { total_credits: 12.5, total_usage: 1.23456789 })
  const calls = upstream.requests.length
  const refused = await spend(plaintext, 'acme/dear', 12)
  assert.equal(refused.statusCode, 402, refused.body)
  assert.match(refused.body, /balance is \$11\.26543211/)
  assert.equal(upstream.requests.length, calls, 'a refused reservation never reaches the upstream')
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
