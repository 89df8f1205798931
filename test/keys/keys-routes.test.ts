// The API key routes over HTTP: every field of the spec's API key, the create-body boundaries, and
// disabling or deleting a key refusing it on the very next request.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { ManualClock } from '../support/manual-clock.ts'
import { hashKeySecret } from '../../src/identity/api-key-secret.ts'
import { createApiKeysRepository } from '../../src/store/repositories/api-keys-repository.ts'

let gateway: TestGateway
const clock = new ManualClock('2026-11-22T12:00:00.000Z')
const admin = (): Record<string, string> => bearer(gateway.adminKey)

before(async () => {
  gateway = await startTestGateway({ clock })
})
after(() => gateway.close())

interface Created {
  data: Record<string, unknown> & { hash: string }
  key: string
}

/** A key as the routes show it; the tests read its fields by name. */
type KeyView = Readonly<Record<string, unknown>> & { readonly hash: string }

/** What the key routes answer: a key in `data` (with the plaintext `key` when minted), or the error envelope. */
interface KeyJson {
  readonly data: KeyView
  readonly key?: string
  readonly error: { readonly message: string }
}

/** What GET /keys answers: a page of keys. */
interface KeyListJson {
  readonly data: readonly KeyView[]
}

async function post(body: unknown): Promise<{ status: number; json: KeyJson }> {
  const response = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: admin(),
    payload: body as object,
  })
  return { status: response.statusCode, json: response.json() }
}

async function create(body: Record<string, unknown> = {}): Promise<Created> {
  const result = await post({ name: 'test key', ...body })
  assert.equal(result.status, 201, JSON.stringify(result.json))
  return result.json as Created
}

async function request(
  method: 'GET' | 'PATCH' | 'DELETE',
  url: string,
  key: string,
  payload?: object,
): Promise<{ status: number; json: KeyJson }> {
  const response = await gateway.inject({
    method,
    url,
    headers: bearer(key),
    ...(payload === undefined ? {} : { payload }),
  })
  return { status: response.statusCode, json: response.json() }
}

async function list(url: string): Promise<{ status: number; json: KeyListJson }> {
  const response = await gateway.inject({ method: 'GET', url, headers: admin() })
  return { status: response.statusCode, json: response.json() }
}

test('POST /keys returns 201 {data, key} with every field of the API key, typed as the spec says', async () => {
  const { data, key } = await create({
    name: 'Prod',
    limit: 12.5,
    limit_reset: 'weekly',
    include_byok_in_limit: true,
    expires_at: '2027-01-31T23:59:59Z',
  })
  assert.match(key, /^sk-sy-v1-[0-9a-f]{64}$/)
  assert.equal(data.hash, hashKeySecret(key))
  assert.equal(data.label, `sk-sy-v1-${key.slice(9, 12)}...${key.slice(-3)}`)
  assert.deepEqual(Object.keys(data).sort(), [
    'byok_usage',
    'byok_usage_daily',
    'byok_usage_monthly',
    'byok_usage_weekly',
    'cache_enabled',
    'cache_ttl_seconds',
    'created_at',
    'creator_user_id',
    'disabled',
    'expires_at',
    'external_user',
    'hash',
    'include_byok_in_limit',
    'label',
    'last_used_at',
    'limit',
    'limit_remaining',
    'limit_reset',
    'name',
    'rate_limits',
    'updated_at',
    'usage',
    'usage_daily',
    'usage_monthly',
    'usage_weekly',
    'workspace_id',
    'workspace_rate_limits',
  ])
  assert.deepEqual(
    { ...data, hash: undefined, label: undefined },
    {
      hash: undefined,
      label: undefined,
      name: 'Prod',
      disabled: false,
      created_at: '2026-11-22T12:00:00.000Z',
      updated_at: null,
      expires_at: '2027-01-31T23:59:59.000Z',
      last_used_at: null,
      creator_user_id: gateway.gateway.bootstrap.ownerUserId,
      workspace_id: gateway.gateway.bootstrap.defaultWorkspaceId,
      external_user: null,
      limit: 12.5,
      limit_remaining: 12.5,
      limit_reset: 'weekly',
      include_byok_in_limit: true,
      usage: 0,
      usage_daily: 0,
      usage_weekly: 0,
      usage_monthly: 0,
      byok_usage: 0,
      byok_usage_daily: 0,
      byok_usage_weekly: 0,
      byok_usage_monthly: 0,
      cache_enabled: null,
      cache_ttl_seconds: null,
      rate_limits: [],
      workspace_rate_limits: [],
    },
  )
  const fetched = await request('GET', `/api/v1/keys/${data.hash}`, gateway.adminKey)
  assert.equal(fetched.status, 200)
  assert.deepEqual(fetched.json, { data })
  assert.ok(!JSON.stringify(fetched.json).includes(key.slice(9)), 'the plaintext never comes back')
})

test('without a limit, limit and limit_remaining are null', async () => {
  const { data } = await create()
  assert.equal(data.limit, null)
  assert.equal(data.limit_remaining, null)
  assert.equal(data.limit_reset, null)
  assert.equal(data.include_byok_in_limit, false)
})

test('expires_at: seconds required, fractional seconds and +00:00 accepted, minute precision and other offsets refused', async () => {
  const accepted: Array<[string, string]> = [
    ['2027-03-01T10:20:30Z', '2027-03-01T10:20:30.000Z'],
    ['2027-03-01T10:20:30.5Z', '2027-03-01T10:20:30.500Z'],
    ['2027-03-01T10:20:30.123456Z', '2027-03-01T10:20:30.123Z'],
    ['2027-03-01T10:20:30+00:00', '2027-03-01T10:20:30.000Z'],
  ]
  for (const [given, stored] of accepted) {
    const { data } = await create({ expires_at: given })
    assert.equal(data.expires_at, stored, given)
  }
  assert.equal((await create({ expires_at: null })).data.expires_at, null)
  const refused: Array<[string, RegExp]> = [
    ['2027-03-01T10:20Z', /minute precision/],
    ['2027-03-01T10:20', /minute precision/],
    ['2027-03-01T10:20:30+02:00', /not in UTC/],
    ['2027-03-01T10:20:30', /not an ISO 8601 timestamp/],
    ['2027-03-01', /not an ISO 8601 timestamp/],
    ['2027-02-30T10:20:30Z', /not a real date/],
    ['2026-11-22T11:59:59Z', /not in the future/],
    ['2026-11-22T12:00:00Z', /not in the future/],
  ]
  for (const [given, reason] of refused) {
    const result = await post({ name: 'x', expires_at: given })
    assert.equal(result.status, 400, given)
    assert.match(result.json.error.message, reason, given)
    if (!/future/.test(reason.source)) assert.match(result.json.error.message, /YYYY-MM-DDTHH:MM:SSZ/, given)
  }
})

test('create body boundaries: name, limit, limit_reset, workspace, creator, unknown fields', async () => {
  const cases: Array<[Record<string, unknown>, number, RegExp]> = [
    [{ name: '' }, 400, /name/],
    [{}, 400, /name/],
    [{ name: 'x', limit: -0.01 }, 400, /limit/],
    [{ name: 'x', limit: 'ten' }, 400, /limit/],
    [{ name: 'x', limit_reset: 'yearly' }, 400, /limit_reset/],
    [
      { name: 'x', workspace_id: '00000000-0000-4000-8000-000000000000' },
      400,
      /workspace_id "00000000-0000-4000-8000-000000000000" does not match any workspace/,
    ],
    [{ name: 'x', creator_user_id: 'nobody' }, 400, /creator_user_id "nobody" is not a member/],
    [{ name: 'x', creator_user_id: '' }, 400, /creator_user_id/],
    [{ name: 'x', external: { api_key: 'k'.repeat(40) } }, 400, /user/],
    [{ name: 'x', external: { user: 'u', api_key: 'short' } }, 400, /api_key/],
    [{ name: 'x', external: { user: 'u', api_key: 'a'.repeat(40) } }, 400, /entropy/],
    [{ name: 'x', kind: 'management' }, 400, /kind/],
  ]
  for (const [body, status, message] of cases) {
    const result = await post(body)
    assert.equal(result.status, status, JSON.stringify(body))
    assert.match(result.json.error.message, message, JSON.stringify(body))
  }
  assert.equal((await create({ name: 'a', limit: 0 })).data.limit_remaining, 0)
  const bySlug = await create({ workspace_id: 'default' })
  assert.equal(bySlug.data.workspace_id, gateway.gateway.bootstrap.defaultWorkspaceId)
})

test('external: external_user is {user}; the partner api_key is stored only as its SHA-256 and never returned', async () => {
  const partnerKey = 'pk-8f2a1c9d4e7b6a3f5c0d2e9b8a7f6e5d4c3b2a1'
  const { data } = await create({ external: { user: 'customer-42', api_key: partnerKey } })
  assert.deepEqual(data.external_user, { user: 'customer-42' })
  const fetched = await request('GET', `/api/v1/keys/${data.hash}`, gateway.adminKey)
  assert.ok(!JSON.stringify(fetched.json).includes(partnerKey))
  const row = await gateway.store.db
    .selectFrom('api_keys')
    .selectAll()
    .where('hash', '=', data.hash)
    .executeTakeFirstOrThrow()
  assert.equal(row.external_api_key_hash, hashKeySecret(partnerKey))
  assert.ok(!JSON.stringify(row).includes(partnerKey))
})

test('GET /keys: newest first, disabled keys only with include_disabled, no total_count, unknown workspace refused', async () => {
  clock.advance(1000)
  const older = await create({ name: 'older' })
  clock.advance(1000)
  const newer = await create({ name: 'newer' })
  await request('PATCH', `/api/v1/keys/${older.data.hash}`, gateway.adminKey, { disabled: true })
  const listed = await list('/api/v1/keys')
  assert.equal(listed.status, 200)
  assert.deepEqual(Object.keys(listed.json), ['data'])
  const hashes = listed.json.data.map((key) => key.hash)
  assert.equal(hashes[0], newer.data.hash)
  assert.ok(!hashes.includes(older.data.hash))
  assert.ok(!hashes.includes(hashKeySecret(gateway.adminKey)), 'management keys are not listed')
  const all = await list('/api/v1/keys?include_disabled=true')
  assert.deepEqual(
    all.json.data.slice(0, 2).map((key) => key.hash),
    [newer.data.hash, older.data.hash],
  )
  const skipped = await list('/api/v1/keys?include_disabled=true&offset=1')
  assert.equal(skipped.json.data[0]?.hash, older.data.hash)
  const workspace = await list(`/api/v1/keys?workspace_id=${gateway.gateway.bootstrap.defaultWorkspaceId}`)
  assert.equal(workspace.json.data[0]?.hash, newer.data.hash)
  assert.equal((await request('GET', '/api/v1/keys?workspace_id=nope', gateway.adminKey)).status, 400)
  assert.equal((await request('GET', '/api/v1/keys?offset=-1', gateway.adminKey)).status, 400)
})

test('PATCH /keys/{hash} changes name, limit, limit_reset and include_byok_in_limit; refuses unknown fields', async () => {
  const { data } = await create({ limit: 3 })
  clock.advance(5000)
  const patched = await request('PATCH', `/api/v1/keys/${data.hash}`, gateway.adminKey, {
    name: 'renamed',
    limit: 7.25,
    limit_reset: 'daily',
    include_byok_in_limit: true,
  })
  assert.equal(patched.status, 200)
  assert.deepEqual(
    {
      name: patched.json.data.name,
      limit: patched.json.data.limit,
      remaining: patched.json.data.limit_remaining,
      reset: patched.json.data.limit_reset,
      byok: patched.json.data.include_byok_in_limit,
      updated: patched.json.data.updated_at,
    },
    { name: 'renamed', limit: 7.25, remaining: 7.25, reset: 'daily', byok: true, updated: clock.now().toISOString() },
  )
  const cleared = await request('PATCH', `/api/v1/keys/${data.hash}`, gateway.adminKey, {
    limit: null,
    limit_reset: null,
  })
  assert.equal(cleared.json.data.limit, null)
  assert.equal(cleared.json.data.limit_remaining, null)
  assert.equal(cleared.json.data.limit_reset, null)
  for (const body of [{ name: '' }, { limit: -1 }, { expires_at: '2030-01-01T00:00:00Z' }, { disabled: 'yes' }]) {
    assert.equal(
      (await request('PATCH', `/api/v1/keys/${data.hash}`, gateway.adminKey, body)).status,
      400,
      JSON.stringify(body),
    )
  }
  assert.equal((await request('PATCH', `/api/v1/keys/${'0'.repeat(64)}`, gateway.adminKey, { name: 'x' })).status, 404)
})

test('disabling via PATCH refuses the key on the next request; enabling restores it', async () => {
  const { data, key } = await create()
  assert.equal((await request('GET', '/api/v1/key', key)).status, 200)
  await request('PATCH', `/api/v1/keys/${data.hash}`, gateway.adminKey, { disabled: true })
  const refused = await request('GET', '/api/v1/key', key)
  assert.equal(refused.status, 401)
  assert.match(refused.json.error.message, /disabled/)
  await request('PATCH', `/api/v1/keys/${data.hash}`, gateway.adminKey, { disabled: false })
  assert.equal((await request('GET', '/api/v1/key', key)).status, 200)
})

test('DELETE /keys/{hash} answers {deleted: true} and refuses the key on the next request', async () => {
  const { data, key } = await create()
  assert.equal((await request('GET', '/api/v1/key', key)).status, 200)
  const deleted = await request('DELETE', `/api/v1/keys/${data.hash}`, gateway.adminKey)
  assert.deepEqual(deleted, { status: 200, json: { deleted: true } })
  assert.equal((await request('GET', '/api/v1/key', key)).status, 401)
  assert.equal((await request('GET', `/api/v1/keys/${data.hash}`, gateway.adminKey)).status, 404)
  assert.equal((await request('DELETE', `/api/v1/keys/${data.hash}`, gateway.adminKey)).status, 404)
})

test('/keys takes management keys only (403); GET /key takes any key and describes the caller', async () => {
  const { key } = await create({ limit: 2 })
  for (const [method, url] of [
    ['GET', '/api/v1/keys'],
    ['GET', `/api/v1/keys/${hashKeySecret(key)}`],
    ['DELETE', `/api/v1/keys/${hashKeySecret(key)}`],
  ] as const) {
    const result = await request(method, url, key)
    assert.equal(result.status, 403, url)
    assert.equal(result.json.error.message, 'Only management keys can perform this operation')
  }
  const forbidden = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(key),
    payload: { name: 'x' },
  })
  assert.equal(forbidden.statusCode, 403)
  const own = await request('GET', '/api/v1/key', key)
  assert.equal(own.json.data.is_management_key, false)
  assert.equal(own.json.data.is_provisioning_key, false)
  assert.equal(own.json.data.limit, 2)
  assert.equal(own.json.data.limit_remaining, 2)
  assert.equal(own.json.data.workspace_id, gateway.gateway.bootstrap.defaultWorkspaceId)
  assert.equal(own.json.data.organization_id, gateway.gateway.bootstrap.organizationId)
  assert.deepEqual(own.json.data.rate_limit, {
    requests: -1,
    interval: '10s',
    note: 'This field is deprecated and safe to ignore.',
  })
  assert.equal(own.json.data.hash, undefined)
  const adminView = await request('GET', '/api/v1/key', gateway.adminKey)
  assert.equal(adminView.json.data.is_management_key, true)
  assert.equal(adminView.json.data.is_provisioning_key, true)
  assert.equal((await gateway.inject({ method: 'GET', url: '/api/v1/key' })).statusCode, 401)
})

test('usage fields and limit_remaining come from settled spend (BYOK apart unless included)', async () => {
  const { data } = await create({ limit: 1, limit_reset: 'monthly' })
  const record = await createApiKeysRepository(gateway.store.db).findByHash(data.hash)
  assert.ok(record !== undefined)
  // internals: no request is BYOK (inference settles every call with isByok: false; no BYOK credentials are
  // stored), so BYOK spend, and exact paid spend beside it, are settled on the accounting service.
  const accounting = gateway.internals.accounting.service
  const paid = await accounting.reserve({
    key: record,
    generationId: 'gen-usage-1',
    attempt: 1,
    worstCaseNano: 500_000_000n,
    isByok: false,
  })
  await accounting.settle(paid, { costNano: 250_000_000n, model: 'acme/fast-1', provider: 'acme' })
  const byok = await accounting.reserve({
    key: record,
    generationId: 'gen-usage-2',
    attempt: 1,
    worstCaseNano: 500_000_000n,
    isByok: true,
  })
  await accounting.settle(byok, { costNano: 100_000_000n, model: 'acme/fast-1', provider: 'acme' })
  const fetched = (await request('GET', `/api/v1/keys/${data.hash}`, gateway.adminKey)).json.data
  assert.deepEqual(
    [
      fetched.usage,
      fetched.usage_daily,
      fetched.usage_weekly,
      fetched.usage_monthly,
      fetched.byok_usage,
      fetched.byok_usage_monthly,
      fetched.limit_remaining,
    ],
    [0.25, 0.25, 0.25, 0.25, 0.1, 0.1, 0.75],
  )
  const included = await request('PATCH', `/api/v1/keys/${data.hash}`, gateway.adminKey, {
    include_byok_in_limit: true,
  })
  assert.equal(included.json.data.limit_remaining, 0.65)
})
