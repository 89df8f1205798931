// What the OpenAPI document says about response caching matches what the gateway answers: the four
// inference operations document the X-OpenRouter-Cache request headers and the X-OpenRouter-Cache-Status
// / -TTL answer headers, whose values on a real miss and hit fit their documented schemas; and the
// generation record of a hit, read with GET /generation and GET /generations, validates against the
// documented generation schema, carries only documented fields and names its source generation. On
// SQLite and (when TEST_DATABASE_URL is set) PostgreSQL.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Value } from 'typebox/value'
import { postgresTarget } from '../support/test-services.ts'
import { cacheOn, startCacheWorld, type CacheWorld } from './cache-world.ts'

interface JsonSchema {
  readonly type?: string
  readonly properties?: Record<string, JsonSchema>
  readonly required?: readonly string[]
  readonly items?: JsonSchema
  readonly [keyword: string]: unknown
}
interface Answer200 {
  readonly headers?: Record<string, { schema: JsonSchema }>
  readonly content: { 'application/json': { schema: JsonSchema } }
}
interface Operation {
  readonly parameters?: { name: string; in: string; schema: JsonSchema }[]
  readonly responses: Record<string, Answer200>
}
type OpenApiDocument = { paths: Record<string, Record<string, Operation>> }

const inferencePaths = ['/api/v1/chat/completions', '/api/v1/responses', '/api/v1/messages', '/api/v1/embeddings']

function assertFits(schema: JsonSchema, value: unknown, what: string): void {
  const errors = [...Value.Errors(schema, value)].map((error) => `${error.instancePath} ${error.message}`)
  assert.deepEqual(errors, [], what)
}

const postgres = postgresTarget()
for (const engine of [
  { name: 'sqlite', skip: false as const, databaseUrl: undefined },
  { name: 'postgres', skip: postgres.skip, databaseUrl: postgres.url },
]) {
  describe(`documented cache shapes on ${engine.name}`, { skip: engine.skip }, () => {
    let world: CacheWorld
    let document: OpenApiDocument
    before(async () => {
      world = await startCacheWorld({}, engine.databaseUrl === undefined ? {} : { postgresUrl: engine.databaseUrl })
      document = (await (await fetch(`${world.base}/api/v1/openapi.json`)).json()) as OpenApiDocument
    })
    after(() => world.close())

    test('every inference operation documents the cache request and answer headers', () => {
      for (const path of inferencePaths) {
        const operation = document.paths[path]?.post
        assert.ok(operation !== undefined, path)
        const headers = (operation.parameters ?? []).filter((parameter) => parameter.in === 'header')
        assert.deepEqual(
          headers.map((parameter) => parameter.name),
          ['x-openrouter-cache', 'x-openrouter-cache-ttl'],
          path,
        )
        assert.deepEqual(
          Object.keys(operation.responses['200']?.headers ?? {}),
          ['x-openrouter-cache-status', 'x-openrouter-cache-ttl'],
          path,
        )
      }
    })

    test('a hit and its generation record fit the documented schemas', async () => {
      const { key } = await world.mintKey('documented-shapes')
      const body = { model: 'test/model', messages: [{ role: 'user', content: 'documented' }] }
      world.upstream.script({ type: 'completion', text: 'Documented.', usage: { input_tokens: 3, output_tokens: 2 } })
      const miss = await world.post('/chat/completions', key, body, { ...cacheOn, 'x-openrouter-cache-ttl': '120' })
      const hit = await world.post('/chat/completions', key, body, { ...cacheOn, 'x-openrouter-cache-ttl': '120' })
      assert.equal(hit.status, 200, hit.text)
      const answerHeaders = document.paths['/api/v1/chat/completions']!.post!.responses['200']!.headers!
      for (const [answer, status] of [
        [miss, 'MISS'],
        [hit, 'HIT'],
      ] as const) {
        for (const [name, { schema }] of Object.entries(answerHeaders))
          assertFits(schema, answer.headers.get(name), `${status} ${name}`)
        assert.equal(answer.headers.get('x-openrouter-cache-status'), status)
        assert.equal(answer.headers.get('x-openrouter-cache-ttl'), '120')
      }

      const missId = miss.headers.get('x-generation-id')!
      const hitId = hit.headers.get('x-generation-id')!
      const single = document.paths['/api/v1/generation']!.get!.responses['200']!.content['application/json'].schema
      const generation = single.properties!.data!
      assert.ok(generation.required?.includes('response_cache_source_id'))
      const found = await world.admin('GET', `/api/v1/generation?id=${hitId}`)
      assert.equal(found.status, 200)
      assertFits(single, found.json, 'GET /generation of a hit')
      const record = (found.json as { data: Record<string, unknown> }).data
      assert.deepEqual(
        Object.keys(record).filter((field) => generation.properties![field] === undefined),
        [],
        'undocumented fields',
      )
      assert.equal(record.response_cache_source_id, missId)
      assert.equal(record.total_cost, 0)

      const list = document.paths['/api/v1/generations']!.get!.responses['200']!.content['application/json'].schema
      const listed = await world.admin('GET', '/api/v1/generations?limit=10')
      assert.equal(listed.status, 200)
      assertFits(list, listed.json, 'GET /generations')
      const rows = (listed.json as { data: Record<string, unknown>[] }).data
      const sources = new Map(rows.map((row) => [row.id, row.response_cache_source_id]))
      assert.equal(sources.get(hitId), missId)
      assert.equal(sources.get(missId), null)
    })
  })
}
