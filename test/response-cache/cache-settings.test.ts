// Response caching switched per key and per workspace (`cache_enabled`, `cache_ttl_seconds`), end to end
// over real sockets on SQLite with the memory store and on PostgreSQL with Redis: a key with caching on
// caches without the header; a workspace with caching off ignores the header (and so does a key with it
// off); the key's TTL applies when the request names none (expiry by the manual clock on memory, the
// stored entry's expiry on Redis); a PATCH on one instance applies on a second sharing the store;
// bodies out of bounds are 400s.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { startFakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { postgresTarget, redisTarget } from '../support/test-services.ts'
import { waitFor } from '../support/wait-for.ts'
import { cacheOn, deleteRedisKeys, redisPrefix, startCacheWorld, type CacheWorld } from './cache-world.ts'

const postgres = postgresTarget()
const redis = redisTarget()
const engines = [
  { name: 'SQLite with the memory store', skip: false as const, shared: false },
  { name: 'PostgreSQL with Redis', skip: postgres.skip || redis.skip, shared: true },
]

const chat = (content: string) => ({ model: 'test/model', messages: [{ role: 'user', content }] })
const status = (answer: { headers: Headers }) => answer.headers.get('x-openrouter-cache-status')

type Settings = { cache_enabled?: boolean | null; cache_ttl_seconds?: number | null }

async function createKey(world: CacheWorld, settings: Settings & { workspace_id?: string }) {
  const created = await world.admin('POST', '/api/v1/keys', { name: `cache-settings-${randomUUID()}`, ...settings })
  assert.equal(created.status, 201, JSON.stringify(created.json))
  const json = created.json as { key: string; data: { hash: string } & Settings }
  return { key: json.key, hash: json.data.hash, data: json.data }
}

async function createWorkspace(world: CacheWorld, settings: Settings) {
  const slug = `cache-${randomUUID().slice(0, 8)}`
  const created = await world.admin('POST', '/api/v1/workspaces', { name: slug, slug, ...settings })
  assert.equal(created.status, 201, JSON.stringify(created.json))
  await world.gateway.drained()
  return (created.json as { data: { id: string } & Settings }).data
}

for (const engine of engines) {
  describe(`cache settings on ${engine.name}`, { skip: engine.skip }, () => {
    let world: CacheWorld
    const prefix = redisPrefix()
    before(async () => {
      world = await startCacheWorld(engine.shared ? { redisUrl: redis.url!, redisKeyPrefix: prefix } : {}, {
        ...(engine.shared ? { postgresUrl: postgres.url! } : {}),
        yaml: 'cache:\n  max_ttl_seconds: 600\n',
      })
    })
    after(async () => {
      await world.close()
      if (engine.shared) await deleteRedisKeys(redis.url!, prefix)
    })
    const upstreamCalls = () => world.upstream.requests.length

    test('a key with cache_enabled caches without the header; its object shows the settings', async () => {
      const { key, hash, data } = await createKey(world, { cache_enabled: true, cache_ttl_seconds: 120 })
      assert.equal(data.cache_enabled, true)
      assert.equal(data.cache_ttl_seconds, 120)
      const miss = await world.post('/chat/completions', key, chat('no header needed'))
      assert.equal(miss.status, 200, miss.text)
      assert.equal(status(miss), 'MISS')
      assert.equal(miss.headers.get('x-openrouter-cache-ttl'), '120')
      const calls = upstreamCalls()
      const hit = await world.post('/chat/completions', key, chat('no header needed'))
      assert.equal(status(hit), 'HIT')
      assert.equal(upstreamCalls(), calls)
      const optedOut = await world.post('/chat/completions', key, chat('no header needed'), {
        'x-openrouter-cache': 'false',
      })
      assert.equal(status(optedOut), null, 'X-OpenRouter-Cache: false still opts one request out')
      assert.equal(upstreamCalls(), calls + 1)
      const shown = await world.admin('GET', `/api/v1/keys/${hash}`)
      assert.deepEqual(
        (({ cache_enabled, cache_ttl_seconds }) => ({ cache_enabled, cache_ttl_seconds }))(
          (shown.json as { data: Settings }).data,
        ),
        { cache_enabled: true, cache_ttl_seconds: 120 },
      )
    })

    test('a workspace with caching off ignores the header, even for a key with caching on', async () => {
      const workspace = await createWorkspace(world, { cache_enabled: false })
      assert.equal(workspace.cache_enabled, false)
      assert.equal(workspace.cache_ttl_seconds, null)
      const { key } = await createKey(world, { workspace_id: workspace.id, cache_enabled: true })
      for (let round = 0; round < 2; round += 1) {
        const calls = upstreamCalls()
        const answer = await world.post('/chat/completions', key, chat('workspace says no'), cacheOn)
        assert.equal(answer.status, 200, answer.text)
        assert.equal(status(answer), null, `round ${round}: no cache status`)
        assert.equal(answer.headers.get('x-openrouter-cache-ttl'), null)
        assert.equal(upstreamCalls(), calls + 1, `round ${round}: the upstream answered`)
      }
    })

    test('a key with caching off ignores the header in a workspace with caching on', async () => {
      const workspace = await createWorkspace(world, { cache_enabled: true, cache_ttl_seconds: 30 })
      const on = await createKey(world, { workspace_id: workspace.id })
      const miss = await world.post('/chat/completions', on.key, chat('workspace says yes'))
      assert.equal(status(miss), 'MISS', 'the workspace turns caching on for its keys')
      assert.equal(miss.headers.get('x-openrouter-cache-ttl'), '30', "the workspace's TTL")
      const off = await createKey(world, { workspace_id: workspace.id, cache_enabled: false })
      for (let round = 0; round < 2; round += 1) {
        const answer = await world.post('/chat/completions', off.key, chat('key says no'), cacheOn)
        assert.equal(status(answer), null, `round ${round}`)
      }
    })

    test("the key's TTL applies when the request names none, and the header's TTL wins", async () => {
      const workspace = await createWorkspace(world, { cache_ttl_seconds: 500 })
      const { key } = await createKey(world, { workspace_id: workspace.id, cache_ttl_seconds: 60 })
      const body = chat(`ttl from the key ${engine.name}`)
      const miss = await world.post('/chat/completions', key, body, cacheOn)
      assert.equal(status(miss), 'MISS')
      assert.equal(miss.headers.get('x-openrouter-cache-ttl'), '60', "the key's TTL over the workspace's")
      const named = await world.post('/chat/completions', key, chat('ttl named'), {
        ...cacheOn,
        'x-openrouter-cache-ttl': '45',
      })
      assert.equal(named.headers.get('x-openrouter-cache-ttl'), '45')
      if (engine.shared) {
        await assertRedisExpiries(prefix, 45_000, 60_000)
        return
      }
      world.clock.advance(59_000)
      assert.equal(status(await world.post('/chat/completions', key, body, cacheOn)), 'HIT')
      world.clock.advance(2_000)
      assert.equal(status(await world.post('/chat/completions', key, body, cacheOn)), 'MISS', 'expired after 60 s')
    })

    test('PATCH turns a key and a workspace on and off; the TTL is bounded like the header', async () => {
      const workspace = await createWorkspace(world, {})
      const { key, hash } = await createKey(world, { workspace_id: workspace.id })
      const patchKey = (body: Settings) => world.admin('PATCH', `/api/v1/keys/${hash}`, body)
      const patchWorkspace = async (body: Settings) => {
        const patched = await world.admin('PATCH', `/api/v1/workspaces/${workspace.id}`, body)
        await world.gateway.drained()
        return patched
      }
      assert.equal(status(await world.post('/chat/completions', key, chat('patched'))), null)
      assert.equal((await patchKey({ cache_enabled: true })).status, 200)
      assert.equal(status(await world.post('/chat/completions', key, chat('patched'))), 'MISS')
      assert.equal(status(await world.post('/chat/completions', key, chat('patched'))), 'HIT')
      const off = await patchWorkspace({ cache_enabled: false, cache_ttl_seconds: 10 })
      assert.equal(off.status, 200, JSON.stringify(off.json))
      assert.equal((off.json as { data: Settings }).data.cache_enabled, false)
      assert.equal(status(await world.post('/chat/completions', key, chat('patched'), cacheOn)), null)
      assert.equal((await patchWorkspace({ cache_enabled: null })).status, 200)
      assert.equal(status(await world.post('/chat/completions', key, chat('patched'))), 'HIT')
      for (const bad of [{ cache_ttl_seconds: 0 }, { cache_ttl_seconds: 86_401 }, { cache_ttl_seconds: 1.5 }]) {
        assert.equal((await patchKey(bad)).status, 400, JSON.stringify(bad))
        assert.equal((await patchWorkspace(bad)).status, 400, JSON.stringify(bad))
      }
      const refused = await patchKey({ cache_ttl_seconds: 601 })
      assert.equal(refused.status, 400)
      assert.match(JSON.stringify(refused.json), /cache_ttl_seconds must be a whole number of seconds from 1 to 600/)
      assert.equal((await patchWorkspace({ cache_ttl_seconds: 601 })).status, 400)
      const created = await world.admin('POST', '/api/v1/keys', { name: 'too long', cache_ttl_seconds: 601 })
      assert.equal(created.status, 400)
      const wrongType = await world.admin('POST', '/api/v1/keys', { name: 'not a flag', cache_enabled: 'yes' })
      assert.equal(wrongType.status, 400)
      const cleared = await patchKey({ cache_enabled: null, cache_ttl_seconds: null })
      assert.deepEqual(
        (({ cache_enabled, cache_ttl_seconds }) => ({ cache_enabled, cache_ttl_seconds }))(
          (cleared.json as { data: Settings }).data,
        ),
        { cache_enabled: null, cache_ttl_seconds: null },
      )
      assert.equal(status(await world.post('/chat/completions', key, chat('patched'))), null)
    })
  })
}

/** Every entry under the prefix expires within (low, high] milliseconds, and one of each bound's TTL exists. */
async function assertRedisExpiries(prefix: string, low: number, high: number): Promise<void> {
  const client = new Redis(redis.url!, { maxRetriesPerRequest: 1 })
  try {
    const expiries = await Promise.all((await client.keys(`${prefix}*`)).map((key) => client.pttl(key)))
    const entries = expiries.filter((ttl) => ttl > 0)
    assert.ok(entries.some((ttl) => ttl > low - 5_000 && ttl <= low))
    assert.ok(
      entries.some((ttl) => ttl > high - 5_000 && ttl <= high),
      JSON.stringify(entries),
    )
  } finally {
    await client.quit()
  }
}

test(
  'a PATCH on one instance applies on a second sharing the store (PostgreSQL and Redis)',
  { skip: postgres.skip || redis.skip },
  async () => {
    const upstream = await startFakeUpstream({ api: 'openai-chat' })
    const prefix = redisPrefix()
    const store = { redisUrl: redis.url!, redisKeyPrefix: prefix }
    const a = await startCacheWorld(store, { upstream, postgresUrl: postgres.url! })
    const b = await startCacheWorld(store, { upstream, databaseUrl: a.gateway.database.url })
    try {
      const workspace = await createWorkspace(a, {})
      const { key, hash } = await createKey(a, { workspace_id: workspace.id })
      const body = chat('across instances')
      // The PATCH also sets a limit that the second instance's GET /key shows once its key cache has the change.
      const turnedOn = await a.admin('PATCH', `/api/v1/keys/${hash}`, { cache_enabled: true, limit: 7 })
      assert.equal(turnedOn.status, 200)
      await waitFor(async () => {
        const seen = await fetch(`${b.base}/api/v1/key`, { headers: { authorization: `Bearer ${key}` } })
        return ((await seen.json()) as { data: { limit: number | null } }).data.limit === 7 ? true : undefined
      }, 'the second instance to see the key turned on')
      assert.equal(status(await b.post('/chat/completions', key, body)), 'MISS')
      assert.equal(status(await a.post('/chat/completions', key, body)), 'HIT', 'the entry is shared through Redis')
      const off = await a.admin('PATCH', `/api/v1/workspaces/${workspace.id}`, { cache_enabled: false })
      assert.equal(off.status, 200)
      // Until the second instance sees the workspace off it answers from the shared entry (a HIT, no upstream
      // call); once it does, the same request goes upstream uncached.
      const calls = upstream.requests.length
      await waitFor(
        async () => (status(await b.post('/chat/completions', key, body, cacheOn)) === null ? true : undefined),
        'the second instance to see the workspace turned off',
      )
      assert.equal(upstream.requests.length, calls + 1, 'the workspace turned caching off on the second instance')
    } finally {
      await b.close()
      await a.close()
      await upstream.close()
      await deleteRedisKeys(redis.url!, prefix)
    }
  },
)
