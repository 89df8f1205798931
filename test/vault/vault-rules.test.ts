// The spec's vault rules at their boundaries: names, hosts, values, paging, create-or-replace, delete,
// fingerprints, writes disabled.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { call, createInternVia, mintKey, noRuntime, secretBody, type ItemList } from '../interns/intern-test-kit.ts'

let gateway: TestGateway
let key: string
const put = (name: string, body: unknown) =>
  call(gateway, key, { method: 'PUT', url: `/api/v1/vault/secrets/${name}`, body })

before(async () => {
  gateway = await startTestGateway({ yaml: noRuntime })
  key = await mintKey(gateway, 'inference', gateway.gateway.bootstrap.defaultWorkspaceId)
})
after(() => gateway.close())

test('secret names: 1..255 characters matching the pattern, no double underscore', async () => {
  for (const name of ['a', 'a1', 'a_b', 'gh_token_2', 'a'.repeat(255)])
    assert.equal((await put(name, secretBody('v'))).status, 200, name)
  for (const name of ['A', '1a', '_a', 'a_', 'a__b', 'a-b', 'a.b', 'a'.repeat(256), 'ab%20c']) {
    const response = await put(name, secretBody('v'))
    assert.equal(response.status, 400, name)
    assert.match(response.json.error.message, /name/)
  }
})

test('a refused secret name is explained in words with a suggested fix, on every route that takes one', async () => {
  const intern = await createInternVia(gateway, key, { name: 'name-rules' })
  const rule = /lowercase letters, digits and single underscores, starting with a letter/
  const internPut = await call(gateway, key, {
    method: 'PUT',
    url: `/api/v1/vault/interns/${intern.id}/secrets/GITHUB_TOKEN`,
    body: secretBody('v'),
  })
  assert.equal(internPut.status, 400)
  assert.match(internPut.json.error.message, rule)
  assert.match(internPut.json.error.message, /"GITHUB_TOKEN".*use "github_token"/)
  assert.deepEqual(internPut.json.error.metadata, { reason: 'invalid_body', retryable: false })
  assert.ok(!internPut.json.error.message.includes('^(?!'), 'the regex is not shown')
  const cases: [string, string][] = [
    ['My-Key', 'my_key'],
    ['2fa__code_', 'fa_code'],
  ]
  for (const [name, suggestion] of cases) {
    const response = await put(name, secretBody('v'))
    assert.equal(response.status, 400, name)
    assert.match(response.json.error.message, rule)
    assert.ok(response.json.error.message.endsWith(`use "${suggestion}"`), response.json.error.message)
  }
  const long = await put('a'.repeat(300), secretBody('v'))
  assert.match(long.json.error.message, /of 300 characters is not allowed/)
  assert.ok(long.json.error.message.endsWith(`use "${'a'.repeat(255)}"`))
  assert.match((await put('123', secretBody('v'))).json.error.message, /choose a name that follows it$/)
  const copied = await call(gateway, key, {
    method: 'POST',
    url: `/api/v1/vault/interns/${intern.id}/secrets/copy`,
    body: { names: ['ok_name', 'OpenAI_Key'] },
  })
  assert.equal(copied.status, 400)
  assert.match(copied.json.error.message, /names: secret name "OpenAI_Key" is not allowed: .*use "openai_key"/)
})

test('values: 1..65536 characters', async () => {
  assert.equal((await put('value_max', secretBody('x'.repeat(65536)))).status, 200)
  assert.equal((await put('value_min', secretBody('x'))).status, 200)
  assert.equal((await put('value_empty', secretBody(''))).status, 400)
  assert.equal((await put('value_long', secretBody('x'.repeat(65537)))).status, 400)
  assert.equal((await put('value_missing', { hosts: ['a.com'] })).status, 400)
  assert.equal((await put('extra_field', { ...secretBody('v'), note: 'x' })).status, 400)
})

test('hosts: normalised, 1..100, refusals name the host', async () => {
  const stored = await put('hosts_norm', secretBody('v', ['API.Example.COM.', 'api.example.com', 'b.example.com']))
  assert.equal(stored.status, 200)
  assert.deepEqual(stored.json.data.hosts, ['api.example.com', 'b.example.com'])
  assert.equal((await put('hosts_none', secretBody('v', []))).status, 400)
  assert.equal(
    (
      await put(
        'hosts_100',
        secretBody(
          'v',
          Array.from({ length: 100 }, (_, index) => `h${index}.com`),
        ),
      )
    ).status,
    200,
  )
  assert.equal(
    (
      await put(
        'hosts_101',
        secretBody(
          'v',
          Array.from({ length: 101 }, (_, index) => `h${index}.com`),
        ),
      )
    ).status,
    400,
  )
  assert.equal((await put('hosts_long', secretBody('v', [`${'a'.repeat(255)}`]))).status, 400)
  for (const host of ['https://api.example.com', 'api.example.com:8443', 'api.example.com/path', '*.example.com', '']) {
    const response = await put('hosts_bad', secretBody('v', [host]))
    assert.equal(response.status, 400, host)
    assert.ok(response.json.error.message.includes(`"${host}"`), response.json.error.message)
    assert.deepEqual(response.json.error.metadata, { reason: 'invalid_body', retryable: false })
  }
})

test('PUT creates or replaces and answers {data: metadata} only; DELETE is 204 then 404', async () => {
  const first = await put('rotate_me', secretBody('old value', ['a.example.com']))
  assert.equal(first.status, 200)
  assert.deepEqual(Object.keys(first.json.data).sort(), ['created_at', 'fingerprint', 'hosts', 'name'])
  assert.match(first.json.data.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  assert.match(String(first.json.data.fingerprint), /^sha256:[0-9a-f]{64}$/)
  assert.ok(!first.text.includes('old value'))
  const replaced = await put('rotate_me', secretBody('new value', ['b.example.com']))
  assert.deepEqual(replaced.json.data.hosts, ['b.example.com'])
  assert.notEqual(replaced.json.data.fingerprint, first.json.data.fingerprint)
  const removed = await call(gateway, key, { method: 'DELETE', url: '/api/v1/vault/secrets/rotate_me' })
  assert.equal(removed.status, 204)
  assert.equal(removed.text, '')
  const again = await call(gateway, key, { method: 'DELETE', url: '/api/v1/vault/secrets/rotate_me' })
  assert.equal(again.status, 404)
  assert.match(again.json.error.message, /rotate_me/)
})

test('fingerprints: equal values are equal within a vault and differ across vaults', async () => {
  const a = await put('fp_one', secretBody('same value'))
  const b = await put('fp_two', secretBody('same value'))
  const c = await put('fp_three', secretBody('other value'))
  assert.equal(a.json.data.fingerprint, b.json.data.fingerprint)
  assert.notEqual(a.json.data.fingerprint, c.json.data.fingerprint)
  const intern = await createInternVia(gateway, key, { name: 'fingerprints' })
  const inIntern = await call(gateway, key, {
    method: 'PUT',
    url: `/api/v1/vault/interns/${intern.id}/secrets/fp_one`,
    body: secretBody('same value'),
  })
  assert.notEqual(inIntern.json.data.fingerprint, a.json.data.fingerprint)
})

test('lists: ordered by name, limit 1..100 (default 100), offset 0..10000, has_more', async () => {
  const intern = await createInternVia(gateway, key, { name: 'paging' })
  const url = `/api/v1/vault/interns/${intern.id}/secrets`
  for (let index = 0; index < 105; index += 1) {
    const name = `s${String(104 - index).padStart(3, '0')}`
    assert.equal(
      (await call(gateway, key, { method: 'PUT', url: `${url}/${name}`, body: secretBody('v') })).status,
      200,
    )
  }
  const first = await call<ItemList>(gateway, key, { method: 'GET', url })
  assert.equal(first.json.data.length, 100)
  assert.equal(first.json.has_more, true)
  assert.equal(first.json.data[0]?.name, 's000')
  const rest = await call<ItemList>(gateway, key, { method: 'GET', url: `${url}?offset=100` })
  assert.deepEqual(
    rest.json.data.map((secret: { name: string }) => secret.name),
    ['s100', 's101', 's102', 's103', 's104'],
  )
  assert.equal(rest.json.has_more, false)
  const exact = await call(gateway, key, { method: 'GET', url: `${url}?limit=5&offset=100` })
  assert.equal(exact.json.has_more, false)
  assert.equal((await call<ItemList>(gateway, key, { method: 'GET', url: `${url}?limit=1` })).json.data.length, 1)
  assert.equal((await call<ItemList>(gateway, key, { method: 'GET', url: `${url}?offset=10000` })).json.data.length, 0)
  for (const query of ['limit=0', 'limit=101', 'offset=-1', 'offset=10001', 'limit=abc']) {
    assert.equal((await call(gateway, key, { method: 'GET', url: `${url}?${query}` })).status, 400, query)
  }
})

test('vault.writes_disabled: writes answer 503 (retryable), reads still work', async () => {
  const readOnly = await startTestGateway({ yaml: 'vault:\n  writes_disabled: true\n' })
  try {
    const readOnlyKey = await mintKey(readOnly, 'inference', readOnly.gateway.bootstrap.defaultWorkspaceId)
    const intern = await createInternVia(readOnly, readOnlyKey, { name: 'readonly' })
    const writes = [
      { method: 'PUT' as const, url: '/api/v1/vault/secrets/x', body: secretBody('v') },
      { method: 'DELETE' as const, url: '/api/v1/vault/secrets/x' },
      { method: 'PUT' as const, url: `/api/v1/vault/interns/${intern.id}/secrets/x`, body: secretBody('v') },
      { method: 'DELETE' as const, url: `/api/v1/vault/interns/${intern.id}/secrets/x` },
      { method: 'POST' as const, url: `/api/v1/vault/interns/${intern.id}/secrets/copy`, body: { names: ['x'] } },
    ]
    for (const write of writes) {
      const response = await call(readOnly, readOnlyKey, write)
      assert.equal(response.status, 503, `${write.method} ${write.url}`)
      assert.deepEqual(response.json.error.metadata, { reason: 'unavailable', retryable: true })
    }
    assert.equal((await call(readOnly, readOnlyKey, { method: 'GET', url: '/api/v1/vault/secrets' })).status, 200)
  } finally {
    await readOnly.close()
  }
})
