// Fields that name server-side state the gateway does not keep are refused at decode with a 400 in the
// route's error shape, before any upstream is called: `thread` and `container` on /messages (the Anthropic
// SDK's beta toolRunner sends `thread`), `conversation` on /responses.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

let gateway: TestGateway
let key: string

before(async () => {
  gateway = await startTestGateway({
    yaml:
      'providers:\n  - { slug: acme, name: Acme AI, api: anthropic, base_url: "http://127.0.0.1:9" }\n' +
      'models:\n  - slug: acme/fast-1\n    endpoints:\n' +
      '      - { provider: acme, upstream_model_id: fast-1, pricing: { prompt: "0.000001", completion: "0.000002" } }\n',
  })
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'stateful fields' },
  })
  assert.equal(created.statusCode, 201, created.body)
  key = (created.json() as { key: string }).key
})
after(() => gateway.close())

const post = (url: string, payload: Record<string, unknown>) =>
  gateway.inject({ method: 'POST', url: `/api/v1${url}`, headers: bearer(key), payload })

const messagesBody = {
  model: 'acme/fast-1',
  max_tokens: 16,
  messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '42' }] }],
}

test('/messages with `thread` is a 400 in Anthropic shape naming thread and the state not kept', async () => {
  const response = await post('/messages', { ...messagesBody, thread: { id: 'thread_1' } })
  assert.equal(response.statusCode, 400, response.body)
  const body = response.json() as { type: string; error: { type: string; message: string } }
  assert.equal(body.type, 'error')
  assert.equal(body.error.type, 'invalid_request_error')
  assert.match(body.error.message, /^thread is not supported: .*no server-side state.*`messages`/)
})

test('/messages with `container` is a 400 naming container; null passes decode (the upstream is then called)', async () => {
  const refused = await post('/messages', { ...messagesBody, container: 'container_1' })
  assert.equal(refused.statusCode, 400, refused.body)
  assert.match((refused.json() as { error: { message: string } }).error.message, /^container .*not supported/)
  const passed = await post('/messages', { ...messagesBody, thread: null, container: null })
  assert.notEqual(passed.statusCode, 400, passed.body)
})

test('/responses with `conversation` is a 400 naming conversation, like previous_response_id', async () => {
  const response = await post('/responses', { model: 'acme/fast-1', input: 'Hi', conversation: 'conv_1' })
  assert.equal(response.statusCode, 400, response.body)
  assert.match((response.json() as { error: { message: string } }).error.message, /^conversation .*not stored/)
})
