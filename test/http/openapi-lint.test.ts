// The OpenAPI document lints clean with Redocly's engine (@redocly/openapi-core, what `redocly lint`
// runs) under its recommended rules, with the three this gateway promises raised to errors: `servers`
// present, an `operationId` on every operation (generated clients get readable method names), and a
// declared 4XX answer on every operation.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createConfig, lintFromString } from '@redocly/openapi-core'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'

/** Findings accepted on purpose, each with its reason. */
const accepted = [
  {
    ruleId: 'operation-2xx-response',
    pointer: '#/paths/~1api~1v1~1credits~1{provider}/post/responses',
    reason: 'the deprecated payments route always answers 410 (spec), it has no success answer',
  },
]

interface Operation {
  readonly operationId?: string
  readonly responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>
}

let gateway: TestGateway
let source: string
before(async () => {
  gateway = await startTestGateway()
  source = (await gateway.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body
})
after(() => gateway.close())

test('redocly lint (recommended rules) finds no problem in the OpenAPI document', async () => {
  const config = await createConfig({
    extends: ['recommended'],
    rules: {
      'no-empty-servers': 'error',
      'operation-operationId': 'error',
      'operation-operationId-unique': 'error',
      'operation-4xx-response': 'error',
      // The project declares no licence in its package; the document cannot name one.
      'info-license': 'off',
    },
  })
  const problems = await lintFromString({ source, absoluteRef: '/api/v1/openapi.json', config })
  const unexpected = problems
    .map((problem) => ({
      ruleId: problem.ruleId,
      severity: problem.severity,
      message: problem.message,
      pointer: problem.location[0]?.pointer ?? '',
    }))
    .filter((problem) => !accepted.some((item) => item.ruleId === problem.ruleId && item.pointer === problem.pointer))
  assert.deepEqual(unexpected, [])
})

test('every operation has a distinct operationId and a 4XX answer in its family error shape', () => {
  const document = JSON.parse(source) as { servers?: unknown[]; paths: Record<string, Record<string, Operation>> }
  assert.ok((document.servers ?? []).length > 0)
  const ids = new Set<string>()
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const id = operation.operationId
      assert.ok(id !== undefined && !ids.has(id), `${method} ${path}: operationId ${id}`)
      ids.add(id)
      const refused = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('4'))
      assert.ok(refused.length > 0, `${method} ${path} declares no 4XX`)
    }
  }
  const messages = document.paths['/api/v1/messages']?.post
  assert.equal(messages?.operationId, 'postMessages')
  assert.equal(
    messages?.responses?.['4XX']?.content?.['application/json']?.schema?.$ref,
    '#/components/schemas/AnthropicError',
  )
  assert.equal(document.paths['/api/v1/keys/{hash}']?.get?.operationId, 'getKeysByHash')
  assert.equal(
    document.paths['/api/v1/keys/{hash}']?.get?.responses?.['4XX']?.content?.['application/json']?.schema?.$ref,
    '#/components/schemas/ErrorEnvelope',
  )
})
