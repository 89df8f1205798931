// An inference body with several bad fields is answered with one 400 naming every one of them, in the
// route's error shape (the envelope for chat, responses and embeddings; Anthropic's for messages), before
// any upstream is called. Fields inside a union branch the value chose are named; branches it did not
// choose are not.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

let gateway: TestGateway
let key: string

before(async () => {
  gateway = await startTestGateway({
    yaml:
      'providers:\n  - { slug: acme, name: Acme AI, api: openai-chat, base_url: "http://127.0.0.1:9" }\n' +
      'models:\n  - slug: acme/fast-1\n    endpoints:\n' +
      '      - { provider: acme, upstream_model_id: fast-1, pricing: { prompt: "0.000001", completion: "0.000002" } }\n' +
      '  - slug: acme/embed-1\n    kind: embedding\n    endpoints:\n' +
      '      - { provider: acme, upstream_model_id: embed-1, pricing: { prompt: "0.000001", completion: "0" } }\n',
  })
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'validation' },
  })
  assert.equal(created.statusCode, 201, created.body)
  key = (created.json() as { key: string }).key
})
after(() => gateway.close())

async function refusedMessage(url: string, payload: Record<string, unknown>): Promise<string[]> {
  const response = await gateway.inject({ method: 'POST', url: `/api/v1${url}`, headers: bearer(key), payload })
  assert.equal(response.statusCode, 400, response.body)
  const body = response.json() as { type?: string; error: { code?: number; type?: string; message: string } }
  if (url === '/messages') {
    assert.equal(body.type, 'error')
    assert.equal(body.error.type, 'invalid_request_error')
  } else {
    assert.equal(body.error.code, 400)
  }
  return body.error.message.split('; ')
}

test('/chat/completions names every bad field, including inside the message branch each role chose', async () => {
  const problems = await refusedMessage('/chat/completions', {
    model: 'acme/fast-1',
    temperature: 'hot',
    max_tokens: 0,
    messages: [
      { role: 'robot', content: 'x' },
      { role: 'user', content: [{ type: 'text' }, { type: 'pic' }] },
      { role: 'tool', content: 'x' },
    ],
  })
  assert.deepEqual(problems, [
    'max_tokens: must be >= 1',
    'messages[0].role: must be one of "system", "developer", "user", "assistant", "tool"',
    'messages[1].content[0].text: is required',
    'messages[1].content[1].type: must be one of "text", "image_url", "refusal"',
    'messages[2].tool_call_id: is required',
    'temperature: must be number',
  ])
})

test('/responses names every bad field in the envelope', async () => {
  const problems = await refusedMessage('/responses', {
    model: 'acme/fast-1',
    temperature: 'x',
    max_output_tokens: 'x',
    input: [{ type: 'message', role: 'user', content: 3 }, { type: 'nope' }],
  })
  assert.equal(problems.length, 4, problems.join('\n'))
  assert.ok(problems.includes('max_output_tokens: must be integer'), problems.join('\n'))
  assert.ok(problems.includes('temperature: must be number'), problems.join('\n'))
  assert.ok(
    problems.some((line) => line.startsWith('input[0].content: ')),
    problems.join('\n'),
  )
  assert.ok(
    problems.some((line) => line.startsWith('input[1].type: must be one of "message", "function_call"')),
    problems.join('\n'),
  )
})

test('/messages names every bad field in the Anthropic error shape', async () => {
  const problems = await refusedMessage('/messages', {
    model: 'acme/fast-1',
    max_tokens: 'x',
    temperature: 5,
    messages: [
      { role: 'bot', content: 'x' },
      { role: 'user', content: [{ type: 'image' }] },
    ],
  })
  assert.deepEqual(problems, [
    'max_tokens: must be integer',
    'messages[0].role: must be one of "user", "assistant"',
    'messages[1].content[0].source: is required',
    'temperature: must be <= 1',
  ])
})

test('/embeddings names every bad field in the envelope', async () => {
  const problems = await refusedMessage('/embeddings', { model: 5, input: [1.5, 'x'], dimensions: 'x' })
  assert.equal(problems.length, 4, problems.join('\n'))
  assert.ok(problems.includes('dimensions: must be integer'), problems.join('\n'))
  assert.ok(problems.includes('model: must be string'), problems.join('\n'))
  assert.ok(
    problems.some((line) => line.startsWith('input[0]: ')),
    problems.join('\n'),
  )
  assert.ok(
    problems.some((line) => line.startsWith('input[1]: ')),
    problems.join('\n'),
  )
})

test('one bad field is named alone, as before', async () => {
  const problems = await refusedMessage('/chat/completions', {
    model: 'acme/fast-1',
    messages: [{ role: 'user', content: 'Hi' }],
    top_p: 3,
  })
  assert.deepEqual(problems, ['top_p: must be <= 1'])
})
