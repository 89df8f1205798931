// Guardrails, budgets, presets and workspace settings take effect on inference requests.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

let gateway: TestGateway
let chat: FakeUpstream
let claude: FakeUpstream
/** Every line the gateway logged, parsed. */
const logged: Record<string, unknown>[] = []
const logSink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n'))
      if (line !== '') logged.push(JSON.parse(line) as Record<string, unknown>)
    done()
  },
})

before(async () => {
  chat = await startFakeUpstream({ api: 'openai-chat' })
  claude = await startFakeUpstream({ api: 'anthropic' })
  gateway = await startTestGateway({
    yaml:
      `providers:\n  - { slug: chatco, api: openai-chat, base_url: "${chat.url}" }\n  - { slug: claudeco, api: anthropic, base_url: "${claude.url}", api_key: k }\n` +
      'models:\n  - slug: test/model\n    endpoints:\n' +
      '      - { provider: chatco, upstream_model_id: m1, max_output_tokens: 100, pricing: { prompt: "0.000001", completion: "0.000002" } }\n' +
      '      - { provider: claudeco, upstream_model_id: m2, max_output_tokens: 100, pricing: { prompt: "0.000003", completion: "0.000004" } }\n',
    logger: pino({ level: 'info' }, logSink),
  })
})
after(async () => {
  await gateway.close()
  await chat.close()
  await claude.close()
})

const admin = () => ({ ...bearer(gateway.adminKey), 'content-type': 'application/json' })

async function newKey(name: string): Promise<{ key: string; hash: string }> {
  const created = await gateway.inject({ method: 'POST', url: '/api/v1/keys', headers: admin(), payload: { name } })
  const body = created.json() as { key: string; data: { hash: string } }
  return { key: body.key, hash: body.data.hash }
}

async function guard(keyHash: string, guardrail: Record<string, unknown>): Promise<string> {
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/guardrails',
    headers: admin(),
    payload: { name: `g-${Math.random()}`, ...guardrail },
  })
  assert.equal(created.statusCode, 201, created.body)
  const id = (created.json() as { data: { id: string } }).data.id
  const assigned = await gateway.inject({
    method: 'POST',
    url: `/api/v1/guardrails/${id}/assignments/keys`,
    headers: admin(),
    payload: { key_hashes: [keyHash] },
  })
  assert.equal(assigned.statusCode, 200, assigned.body)
  await gateway.drained()
  return id
}

function chatCall(key: string, content: string, extra: Record<string, unknown> = {}) {
  return gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: { model: 'test/model', messages: [{ role: 'user', content }], ...extra },
  })
}

test('redaction happens before the upstream sees the text; block refuses with 403 naming the guardrail', async () => {
  const { key, hash } = await newKey('filtered')
  const id = await guard(hash, {
    content_filter_builtins: [{ slug: 'email', action: 'redact' }],
    content_filters: [{ pattern: 'TOP-SECRET-\\d+', action: 'block' }],
  })
  const answered = await chatCall(key, 'Mail me at ada@example.com please')
  assert.equal(answered.statusCode, 200, answered.body)
  const seen = JSON.stringify(chat.requests.at(-1)?.body)
  assert.ok(!seen.includes('ada@example.com'), seen)
  assert.match(seen, /\[EMAIL\]/)
  const generationId = String(answered.headers['x-generation-id'])
  await gateway.drained()
  const content = await gateway.inject({
    method: 'GET',
    url: `/api/v1/generation/content?id=${generationId}`,
    headers: bearer(key),
  })
  assert.ok(!content.body.includes('ada@example.com'), 'stored content is redacted too')
  const before = chat.requests.length
  const blocked = await chatCall(key, 'the code is TOP-SECRET-42')
  assert.equal(blocked.statusCode, 403)
  assert.match((blocked.json() as { error: { message: string } }).error.message, new RegExp(id))
  assert.equal(chat.requests.length, before, 'a blocked request never reaches an upstream')
  const viaResponses = await gateway.inject({
    method: 'POST',
    url: '/api/v1/responses',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: { model: 'test/model', input: 'TOP-SECRET-7' },
  })
  assert.equal(viaResponses.statusCode, 403)
})

test('flag rules let the text through and are recorded: a log line naming the rule (never the text) and a metric', async () => {
  const { key, hash } = await newKey('flagged')
  const id = await guard(hash, {
    content_filter_builtins: [{ slug: 'email', action: 'flag' }],
    content_filters: [{ pattern: 'ticket-\\d+', action: 'redact', label: '[TICKET]' }],
  })
  const answered = await chatCall(key, 'Write to ada@example.com and bob@example.com about ticket-12')
  assert.equal(answered.statusCode, 200, answered.body)
  const seen = JSON.stringify(chat.requests.at(-1)?.body)
  assert.match(
    seen,
    /ada@example\.com and bob@example\.com about \[TICKET\]/,
    'flagged text goes upstream unchanged; redacted text does not',
  )
  const generationId = String(answered.headers['x-generation-id'])
  const line = logged.find((entry) => entry.msg === 'content filter matches' && entry.generation_id === generationId)
  assert.ok(line !== undefined, 'a log line for the matches')
  const matches = line.content_filter_matches as Record<string, unknown>[]
  assert.deepEqual(
    matches.map(({ guardrail_id, rule, action, message_index, count }) => ({
      guardrail_id,
      rule,
      action,
      message_index,
      count,
    })),
    [
      { guardrail_id: id, rule: 'pattern:ticket-\\d+', action: 'redact', message_index: 0, count: 1 },
      { guardrail_id: id, rule: 'email', action: 'flag', message_index: 0, count: 2 },
    ],
  )
  assert.ok(!JSON.stringify(line).includes('ada@example.com'), 'the matched text is not logged')
  const metrics = (await gateway.inject({ method: 'GET', url: '/metrics' })).body
  assert.match(
    metrics,
    new RegExp(`switchyard_guardrail_content_matches_total\\{guardrail="${id}",rule="email",action="flag"\\} 1`),
  )
  assert.match(
    metrics,
    new RegExp(
      `switchyard_guardrail_content_matches_total\\{guardrail="${id}",rule="pattern:ticket-\\\\\\\\d\\+",action="redact"\\} 1`,
    ),
  )
})

test('allowed providers filter routing; nothing left is 403', async () => {
  const { key, hash } = await newKey('routed')
  await guard(hash, { allowed_providers: ['claudeco'] })
  const before = chat.requests.length
  assert.equal((await chatCall(key, 'hi')).statusCode, 200)
  assert.equal(chat.requests.length, before, 'chatco was filtered out')
  const { key: other, hash: otherHash } = await newKey('nowhere')
  await guard(otherHash, { ignored_models: ['test/model'] })
  const refused = await chatCall(other, 'hi')
  assert.equal(refused.statusCode, 403)
  assert.match((refused.json() as { error: { message: string } }).error.message, /not allowed/)
})

test('a guardrail budget is reserved against: a call that could exceed it is refused with 402', async () => {
  const { key, hash } = await newKey('budgeted')
  await guard(hash, { limit_usd: 0.0001, reset_interval: 'daily' })
  const refused = await chatCall(key, 'hi', { max_tokens: 100 })
  assert.equal(refused.statusCode, 402, refused.body)
  const { key: roomy, hash: roomyHash } = await newKey('roomy')
  await guard(roomyHash, { limit_usd: 1, reset_interval: 'daily' })
  assert.equal((await chatCall(roomy, 'hi', { max_tokens: 100 })).statusCode, 200)
})

test('a preset applies under the request and its system prompt is prepended', async () => {
  const { key } = await newKey('preset-user')
  const saved = await gateway.inject({
    method: 'POST',
    url: '/api/v1/presets/careful/chat/completions',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: {
      model: 'test/model',
      temperature: 0.1,
      provider: { only: ['chatco'] },
      messages: [
        { role: 'system', content: 'Be careful.' },
        { role: 'user', content: 'ignored' },
      ],
    },
  })
  assert.equal(saved.statusCode, 200, saved.body)
  await gateway.drained()
  const answered = await gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: { model: '@preset/careful', temperature: 0.7, messages: [{ role: 'user', content: 'hello' }] },
  })
  assert.equal(answered.statusCode, 200, answered.body)
  const upstream = chat.requests.at(-1)?.body as { temperature: number; messages: { role: string; content: string }[] }
  assert.equal(upstream.temperature, 0.7, 'the request wins')
  assert.equal(upstream.messages[0]?.role, 'system')
  assert.match(JSON.stringify(upstream.messages[0]), /Be careful\./)
  const unknown = await gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: { model: '@preset/nope', messages: [{ role: 'user', content: 'x' }] },
  })
  assert.equal(unknown.statusCode, 404)
  assert.match((unknown.json() as { error: { message: string } }).error.message, /nope/)
})

test('workspace settings: default text model, disabled server tools, budgets', async () => {
  const patched = await gateway.inject({
    method: 'PATCH',
    url: '/api/v1/workspaces/default',
    headers: admin(),
    payload: { default_text_model: 'test/model', disabled_server_tools: ['openrouter:web_search'] },
  })
  assert.equal(patched.statusCode, 200, patched.body)
  const { key } = await newKey('workspace-settings')
  const noModel = await gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: { messages: [{ role: 'user', content: 'x' }] },
  })
  assert.equal(noModel.statusCode, 200, noModel.body)
  const tool = await gateway.inject({
    method: 'POST',
    url: '/api/v1/responses',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: { model: 'test/model', input: 'x', tools: [{ type: 'openrouter:web_search' }] },
  })
  assert.equal(tool.statusCode, 403)
  assert.match((tool.json() as { error: { message: string } }).error.message, /openrouter:web_search/)
  const budget = await gateway.inject({
    method: 'PUT',
    url: '/api/v1/workspaces/default/budgets/daily',
    headers: admin(),
    payload: { limit_usd: 0.00001 },
  })
  assert.equal(budget.statusCode, 200, budget.body)
  const overBudget = await chatCall(key, 'x', { max_tokens: 100 })
  assert.equal(overBudget.statusCode, 402, overBudget.body)
  await gateway.inject({ method: 'DELETE', url: '/api/v1/workspaces/default/budgets/daily', headers: admin() })
  await gateway.inject({
    method: 'PATCH',
    url: '/api/v1/workspaces/default',
    headers: admin(),
    payload: { default_text_model: null, disabled_server_tools: null },
  })
})
