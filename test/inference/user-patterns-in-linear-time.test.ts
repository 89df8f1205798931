// Regular expressions that users store (guardrail content filters, observability filter rules) cannot
// hold the event loop: nested quantifiers over a long prompt are answered while /health keeps answering.
// On a backtracking engine each of these inputs takes about 2^10000 steps, so a regression hangs here.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { startRecordingServer, type RecordingServer } from '../observability/support/recording-server.ts'
import { sampleTrace } from '../observability/support/sample-trace.ts'
import { broadcast } from '../observability/support/broadcast.ts'

let gateway: TestGateway
let upstream: FakeUpstream
let receiver: RecordingServer
const catastrophicPrompt = `${'a'.repeat(10_000)}!`

before(async () => {
  upstream = await startFakeUpstream({ api: 'openai-chat' })
  receiver = await startRecordingServer()
  gateway = await startTestGateway({
    yaml:
      `egress:\n  allow_private_networks: true\nproviders:\n  - { slug: chatco, api: openai-chat, base_url: "${upstream.url}" }\n` +
      'models:\n  - slug: test/model\n    endpoints:\n' +
      '      - { provider: chatco, upstream_model_id: m1, max_output_tokens: 100, pricing: { prompt: "0.000001", completion: "0.000002" } }\n',
  })
})
after(async () => {
  await gateway.close()
  await upstream.close()
  await receiver.close()
})

async function manage(method: 'POST', url: string, payload: Record<string, unknown>) {
  return gateway.inject({ method, url, headers: bearer(gateway.adminKey), payload })
}

async function health(): Promise<number> {
  return (await gateway.inject({ method: 'GET', url: '/health' })).statusCode
}

test('guardrail content filters with nested quantifiers answer a long prompt while /health answers', async () => {
  const created = await manage('POST', '/api/v1/keys', { name: 'patterns' })
  const { key, data } = created.json() as { key: string; data: { hash: string } }
  const guardrail = await manage('POST', '/api/v1/guardrails', {
    name: 'nested',
    content_filters: [
      { pattern: '(a+)+b', action: 'redact', label: '[B]' },
      { pattern: '^(a+)+$', action: 'block' },
    ],
  })
  assert.equal(guardrail.statusCode, 201, guardrail.body)
  const id = (guardrail.json() as { data: { id: string } }).data.id
  const assigned = await manage('POST', `/api/v1/guardrails/${id}/assignments/keys`, { key_hashes: [data.hash] })
  assert.equal(assigned.statusCode, 200, assigned.body)
  await gateway.drained()
  const chat = (content: string) =>
    gateway.inject({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: bearer(key),
      payload: { model: 'test/model', messages: [{ role: 'user', content }] },
    })

  const [answered, healthStatus] = await Promise.all([chat(catastrophicPrompt), health()])
  assert.equal(answered.statusCode, 200, answered.body)
  assert.equal(healthStatus, 200)
  assert.ok(
    JSON.stringify(upstream.requests.at(-1)?.body).includes(catastrophicPrompt),
    'nothing matched, nothing changed',
  )
  assert.equal((await chat('a'.repeat(10_000))).statusCode, 403, 'the block rule still matches what it should')
  assert.equal((await chat('x aaab y')).statusCode, 200)
  assert.match(JSON.stringify(upstream.requests.at(-1)?.body), /x \[B\] y/)
})

test('observability filter rules with nested quantifiers decide on a long prompt while /health answers', async () => {
  const destination = (name: string, value: string) =>
    manage('POST', '/api/v1/observability/destinations', {
      name,
      type: 'webhook',
      config: { url: `${receiver.url}/${name}` },
      filter_rules: { groups: [{ rules: [{ field: 'input', operator: 'regex', value }] }] },
    })
  assert.equal((await destination('never', '^(a+)+$')).statusCode, 201)
  assert.equal((await destination('always', '^(a+)+!$')).statusCode, 201)
  const trace = sampleTrace(gateway.gateway.bootstrap.defaultWorkspaceId, {
    input: { messages: [{ role: 'user', content: catastrophicPrompt }] },
  })
  const [queued, healthStatus] = await Promise.all([broadcast(gateway, trace), health()])
  assert.equal(queued, 1, 'only the destination whose rule matches receives the trace')
  assert.equal(healthStatus, 200)
})

test('a backreference or lookaround is refused at write time, naming the field', async () => {
  const guardrail = await manage('POST', '/api/v1/guardrails', {
    name: 'backreference',
    content_filters: [{ pattern: '(a)\\1', action: 'block' }],
  })
  assert.equal(guardrail.statusCode, 400)
  assert.match(
    (guardrail.json() as { error: { message: string } }).error.message,
    /content_filters\[0\]\.pattern is not a valid regular expression: backreference "\\1" is not supported/,
  )
  const destination = await manage('POST', '/api/v1/observability/destinations', {
    name: 'lookaround',
    type: 'webhook',
    config: { url: `${receiver.url}/lookaround` },
    filter_rules: { groups: [{ rules: [{ field: 'model', operator: 'regex', value: '(\\w)\\1|x(?=y)' }] }] },
  })
  assert.equal(destination.statusCode, 400)
  assert.match(
    (destination.json() as { error: { message: string } }).error.message,
    /filter_rules\.groups\[0\]\.rules\[0\]\.value is not a valid regular expression: backreference "\\1" is not supported/,
  )
})
