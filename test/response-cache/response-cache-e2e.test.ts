// Response caching end to end over real sockets, on the memory store and on Redis: a hit answers the
// same content as the miss that stored it (JSON and streamed, byte for byte but for the new generation's
// id, created time and zeroed usage), bills nothing and is recorded as a new generation naming its
// source; any difference in body, model, key or streaming mode misses; entries expire with their TTL
// (manual clock on memory); nonsense headers are 400s; tool calls, /responses, /messages and
// /embeddings cache the same way.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { redisTarget } from '../support/test-services.ts'
import { cacheOn, deleteRedisKeys, redisPrefix, sseData, startCacheWorld, type CacheWorld } from './cache-world.ts'

const redis = redisTarget()
const stores = [
  { name: 'memory', skip: false as const, redis: false },
  { name: 'redis', skip: redis.skip, redis: true },
]

const chat = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'test/model',
  messages: [{ role: 'user', content }],
  ...extra,
})

/** An answer's JSON with its generation id masked and its usage and timestamps left out. */
function comparable(answer: { headers: Headers; text: string }): unknown {
  const masked = JSON.parse(answer.text.replaceAll(answer.headers.get('x-generation-id')!, 'ID')) as Record<
    string,
    unknown
  >
  for (const field of ['usage', 'created', 'created_at', 'completed_at']) delete masked[field]
  return masked
}

for (const store of stores) {
  describe(`response cache on ${store.name}`, { skip: store.skip }, () => {
    let world: CacheWorld
    let key: string
    const prefix = redisPrefix()
    before(async () => {
      world = await startCacheWorld(store.redis ? { redisUrl: redis.url!, redisKeyPrefix: prefix } : {})
      key = (await world.mintKey('cache-e2e')).key
    })
    after(async () => {
      await world.close()
      if (store.redis) await deleteRedisKeys(redis.url!, prefix)
    })
    const upstreamCalls = () => world.upstream.requests.length

    test('a JSON hit answers the same content with a new generation, zero usage and nothing billed', async () => {
      world.upstream.script({
        type: 'completion',
        text: 'The answer is 42.',
        usage: { input_tokens: 12, output_tokens: 7 },
      })
      const miss = await world.post('/chat/completions', key, chat('meaning of life'), cacheOn)
      assert.equal(miss.status, 200, miss.text)
      assert.equal(miss.headers.get('x-openrouter-cache-status'), 'MISS')
      assert.equal(miss.headers.get('x-openrouter-cache-ttl'), '300')
      const calls = upstreamCalls()
      world.clock.advance(5_000)
      const hit = await world.post('/chat/completions', key, chat('meaning of life'), cacheOn)
      assert.equal(hit.status, 200, hit.text)
      assert.equal(hit.headers.get('x-openrouter-cache-status'), 'HIT')
      assert.equal(upstreamCalls(), calls, 'no upstream call on a hit')
      const first = miss.json()
      const second = hit.json()
      assert.notEqual(second.id, first.id)
      assert.equal(hit.headers.get('x-generation-id'), second.id)
      assert.equal(second.created, (first.created as number) + 5)
      assert.deepEqual(second.choices, first.choices)
      const usage = second.usage as Record<string, unknown>
      assert.equal(usage.prompt_tokens, 0)
      assert.equal(usage.completion_tokens, 0)
      assert.equal(usage.total_tokens, 0)
      assert.equal(usage.cost, 0)
      const record = await world.generation(String(second.id))
      assert.equal(record.response_cache_source_id, first.id)
      assert.equal(record.total_cost, 0)
      assert.equal(record.tokens_prompt, 0)
      assert.equal(record.tokens_completion, 0)
      const source = await world.generation(String(first.id))
      assert.equal(source.response_cache_source_id, null)
      assert.ok((source.total_cost as number) > 0)
    })

    test('a streamed hit replays the same chunks under the new generation id', async () => {
      world.upstream.script({ type: 'completion', text: 'Streaming is fun to cache.', chunks: 4 })
      const body = chat('stream me', { stream: true, stream_options: { include_usage: true } })
      const miss = await world.post('/chat/completions', key, body, cacheOn)
      assert.equal(miss.headers.get('x-openrouter-cache-status'), 'MISS')
      const calls = upstreamCalls()
      const hit = await world.post('/chat/completions', key, body, cacheOn)
      assert.equal(hit.headers.get('x-openrouter-cache-status'), 'HIT')
      assert.equal(upstreamCalls(), calls)
      const missId = miss.headers.get('x-generation-id')!
      const hitId = hit.headers.get('x-generation-id')!
      assert.notEqual(hitId, missId)
      const missFrames = sseData(miss.text)
      const hitFrames = sseData(hit.text)
      assert.equal(hitFrames.length, missFrames.length)
      assert.equal(hitFrames.at(-1), '[DONE]')
      for (const [index, frame] of hitFrames.entries()) {
        if (frame.includes('"usage"') && frame.includes('"cost"')) {
          const usage = (JSON.parse(frame) as { usage: Record<string, number> }).usage
          assert.equal(usage.prompt_tokens, 0)
          assert.equal(usage.completion_tokens, 0)
          assert.equal(usage.cost, 0)
          continue
        }
        assert.equal(frame, missFrames[index]!.replaceAll(missId, hitId), `frame ${index}`)
        if (frame !== '[DONE]') assert.equal((JSON.parse(frame) as { id: string }).id, hitId)
      }
      const record = await world.generation(hitId)
      assert.equal(record.response_cache_source_id, missId)
      assert.equal(record.streamed, true)
      assert.equal(record.total_cost, 0)
    })

    test('any difference in body, model, key or streaming mode misses', async () => {
      const base = chat('differences')
      await world.post('/chat/completions', key, base, cacheOn)
      assert.equal(
        (await world.post('/chat/completions', key, base, cacheOn)).headers.get('x-openrouter-cache-status'),
        'HIT',
      )
      const other = await world.mintKey('another key')
      const variants: [string, Record<string, unknown>, string][] = [
        ['body', chat('differences', { temperature: 0.5 }), key],
        ['model', { ...base, model: 'test/other' }, key],
        ['key', base, other.key],
        ['stream', { ...base, stream: true }, key],
      ]
      for (const [what, body, by] of variants) {
        const calls = upstreamCalls()
        const answer = await world.post('/chat/completions', by, body, cacheOn)
        assert.equal(answer.status, 200, answer.text)
        assert.equal(answer.headers.get('x-openrouter-cache-status'), 'MISS', what)
        assert.equal(upstreamCalls(), calls + 1, what)
      }
      const plain = await world.post('/chat/completions', key, base)
      assert.equal(plain.headers.get('x-openrouter-cache-status'), null, 'no header: the cache is not used')
      const optedOut = await world.post('/chat/completions', key, base, { 'x-openrouter-cache': 'false' })
      assert.equal(optedOut.headers.get('x-openrouter-cache-status'), null)
    })

    test('errors are not cached', async () => {
      world.upstream.script({ type: 'error', status: 500 })
      const failed = await world.post('/chat/completions', key, chat('fails once'), cacheOn)
      assert.notEqual(failed.status, 200)
      const calls = upstreamCalls()
      const retried = await world.post('/chat/completions', key, chat('fails once'), cacheOn)
      assert.equal(retried.status, 200, retried.text)
      assert.equal(retried.headers.get('x-openrouter-cache-status'), 'MISS')
      assert.equal(upstreamCalls(), calls + 1)
    })

    test('tool calls, /responses, /messages and /embeddings hit the same way', async () => {
      world.upstream.script({
        type: 'completion',
        toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' }],
      })
      const tools = chat('use a tool', {
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      })
      const requests: [string, unknown][] = [
        ['/chat/completions', tools],
        ['/responses', { model: 'test/model', input: 'responses please' }],
        [
          '/messages',
          { model: 'test/model', max_tokens: 50, messages: [{ role: 'user', content: 'messages please' }] },
        ],
        ['/embeddings', { model: 'test/embed', input: ['embed me', 'and me'] }],
      ]
      for (const [path, body] of requests) {
        const miss = await world.post(path, key, body, cacheOn)
        assert.equal(miss.status, 200, `${path}: ${miss.text}`)
        const calls = upstreamCalls()
        const hit = await world.post(path, key, body, cacheOn)
        assert.equal(hit.headers.get('x-openrouter-cache-status'), 'HIT', path)
        assert.equal(upstreamCalls(), calls, path)
        const record = await world.generation(hit.headers.get('x-generation-id')!)
        assert.equal(record.response_cache_source_id, miss.headers.get('x-generation-id'), path)
        assert.equal(record.total_cost, 0, path)
        assert.deepEqual(comparable(hit), comparable(miss), path)
      }
    })

    test(
      'an entry expires with its TTL',
      { skip: store.redis ? 'Redis expires entries itself, by real time' : false },
      async () => {
        const ttl = { ...cacheOn, 'x-openrouter-cache-ttl': '60' }
        const miss = await world.post('/chat/completions', key, chat('short-lived'), ttl)
        assert.equal(miss.headers.get('x-openrouter-cache-ttl'), '60')
        world.clock.advance(59_000)
        assert.equal(
          (await world.post('/chat/completions', key, chat('short-lived'), ttl)).headers.get(
            'x-openrouter-cache-status',
          ),
          'HIT',
        )
        world.clock.advance(1_000)
        const calls = upstreamCalls()
        const expired = await world.post('/chat/completions', key, chat('short-lived'), ttl)
        assert.equal(expired.headers.get('x-openrouter-cache-status'), 'MISS')
        assert.equal(upstreamCalls(), calls + 1)
      },
    )

    test('guardrails still run on a would-be hit', async () => {
      const guarded = await world.mintKey('guarded')
      await world.post('/chat/completions', guarded.key, chat('guard me'), cacheOn)
      assert.equal(
        (await world.post('/chat/completions', guarded.key, chat('guard me'), cacheOn)).headers.get(
          'x-openrouter-cache-status',
        ),
        'HIT',
      )
      const created = await world.admin('POST', '/api/v1/guardrails', {
        name: 'only other',
        allowed_models: ['test/other'],
      })
      assert.equal(created.status, 201, JSON.stringify(created.json))
      const id = (created.json as { data: { id: string } }).data.id
      const assigned = await world.admin('POST', `/api/v1/guardrails/${id}/assignments/keys`, {
        key_hashes: [guarded.hash],
      })
      assert.equal(assigned.status, 200, JSON.stringify(assigned.json))
      const calls = upstreamCalls()
      const refused = await world.post('/chat/completions', guarded.key, chat('guard me'), cacheOn)
      assert.equal(refused.status, 403, refused.text)
      assert.equal(upstreamCalls(), calls)
      const record = await world.generation(refused.headers.get('x-generation-id')!)
      assert.equal(record.response_cache_source_id, null)
    })

    test('nonsense cache headers are refused with a 400 in the envelope', async () => {
      for (const headers of [
        { 'x-openrouter-cache': 'yes' },
        { ...cacheOn, 'x-openrouter-cache-ttl': '0' },
        { ...cacheOn, 'x-openrouter-cache-ttl': '86401' },
        { ...cacheOn, 'x-openrouter-cache-ttl': 'soon' },
      ]) {
        const answer = await world.post('/chat/completions', key, chat('bad header'), headers)
        assert.equal(answer.status, 400, JSON.stringify(headers))
        const error = answer.json().error as { code: number; message: string }
        assert.equal(error.code, 400)
        assert.match(error.message, /X-OpenRouter-Cache/)
      }
    })
  })
}
