// A response-cache hit counts as a request but charges no estimated input tokens to the tokens-per-minute
// budgets: no provider is called for it. A key whose tokens-per-minute rule is spent by one miss is still
// answered from the cache, while a request that would go to a provider is refused with a 429. Memory
// store, manual clock (the bucket does not refill during the test).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { cacheOn, startCacheWorld, type CacheWorld } from './cache-world.ts'

let world: CacheWorld
before(async () => {
  world = await startCacheWorld({})
})
after(() => world.close())

test('hits are not charged estimated input tokens; a miss is refused when the bucket is spent', async () => {
  const { key, hash } = await world.mintKey('few tokens')
  const rule = await world.admin('POST', '/api/v1/rate-limits', { key_hash: hash, tokens_per_minute: 40 })
  assert.equal(rule.status, 201, JSON.stringify(rule.json))
  const long = (topic: string) => ({
    model: 'test/model',
    messages: [{ role: 'user', content: `${topic} ${'word '.repeat(60)}` }],
  })
  const miss = await world.post('/chat/completions', key, long('cached'), cacheOn)
  assert.equal(miss.status, 200, 'an empty bucket admits one call')
  assert.equal(miss.headers.get('x-openrouter-cache-status'), 'MISS')
  const calls = world.upstream.requests.length
  for (let round = 0; round < 5; round += 1) {
    const hit = await world.post('/chat/completions', key, long('cached'), cacheOn)
    assert.equal(hit.status, 200, `round ${round}: ${hit.text}`)
    assert.equal(hit.headers.get('x-openrouter-cache-status'), 'HIT')
  }
  assert.equal(world.upstream.requests.length, calls)
  const refused = await world.post('/chat/completions', key, long('not cached'), cacheOn)
  assert.equal(refused.status, 429, refused.text)
  assert.match(refused.text, /allows 40 tokens per minute/)
  assert.equal(world.upstream.requests.length, calls, 'the refused miss called no provider')
})
