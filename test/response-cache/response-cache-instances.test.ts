// Two gateway instances on one PostgreSQL and one Redis share their response cache: an answer stored by
// one is a hit on the other, recorded there as a new generation naming its source, and the upstream is
// called once. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (CI).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { postgresTarget, redisTarget } from '../support/test-services.ts'
import { cacheOn, deleteRedisKeys, redisPrefix, sseData, startCacheWorld } from './cache-world.ts'

const postgres = postgresTarget()
const redis = redisTarget()

test(
  'an answer cached by one instance is a hit on the other (JSON and streamed)',
  { skip: postgres.skip || redis.skip },
  async () => {
    const upstream = await startFakeUpstream({ api: 'openai-chat' })
    const prefix = redisPrefix()
    const store = { redisUrl: redis.url!, redisKeyPrefix: prefix }
    const a = await startCacheWorld(store, { upstream, postgresUrl: postgres.url! })
    const b = await startCacheWorld(store, { upstream, databaseUrl: a.gateway.database.url })
    try {
      const { key } = await a.mintKey('shared')
      for (const stream of [false, true]) {
        const body = { model: 'test/model', messages: [{ role: 'user', content: 'shared answer' }], stream }
        const miss = await a.post('/chat/completions', key, body, cacheOn)
        assert.equal(miss.status, 200, miss.text)
        assert.equal(miss.headers.get('x-openrouter-cache-status'), 'MISS')
        const calls = upstream.requests.length
        const hit = await b.post('/chat/completions', key, body, cacheOn)
        assert.equal(hit.status, 200, hit.text)
        assert.equal(hit.headers.get('x-openrouter-cache-status'), 'HIT')
        assert.equal(upstream.requests.length, calls, 'the second instance did not call the upstream')
        const missId = miss.headers.get('x-generation-id')!
        const hitId = hit.headers.get('x-generation-id')!
        assert.notEqual(hitId, missId)
        if (stream) assert.equal(sseData(hit.text).length, sseData(miss.text).length)
        else assert.deepEqual(hit.json().choices, miss.json().choices)
        const record = await b.generation(hitId)
        assert.equal(record.response_cache_source_id, missId)
        assert.equal(record.total_cost, 0)
      }
    } finally {
      await b.close()
      await a.close()
      await upstream.close()
      await deleteRedisKeys(redis.url!, prefix)
    }
  },
)
