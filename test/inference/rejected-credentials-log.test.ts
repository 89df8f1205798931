// When an upstream rejects the gateway's credentials (401/403), the operator's log says which provider,
// the status and the upstream's own message, and where to set the credential — never the key itself,
// even when the upstream echoes it. The client gets a plain message without the upstream's words.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import pino from 'pino'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'

const lines: Record<string, unknown>[] = []
const wrongKey = 'sk-wrong-credential-0123456789'
let gateway: TestGateway
let echoing: FakeUpstream
let checking: FakeUpstream
let key: string

before(async () => {
  echoing = await startFakeUpstream({ api: 'openai-chat' })
  checking = await startFakeUpstream({ api: 'anthropic', apiKey: 'sk-ant-right' })
  gateway = await startTestGateway({
    logger: pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    ),
    yaml:
      'providers:\n' +
      `  - { slug: echoer, api: openai-chat, base_url: "${echoing.url}", api_key: ${wrongKey} }\n` +
      `  - { slug: claude, api: anthropic, base_url: "${checking.url}", api_key: ${wrongKey} }\n` +
      'models:\n' +
      '  - slug: acme/echo\n    endpoints:\n' +
      '      - { provider: echoer, upstream_model_id: fast-1, pricing: { prompt: "0.000001", completion: "0.000002" } }\n' +
      '  - slug: acme/claude\n    endpoints:\n' +
      '      - { provider: claude, upstream_model_id: claude-1, pricing: { prompt: "0.000001", completion: "0.000002" } }\n',
  })
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'credentials' },
  })
  assert.equal(created.statusCode, 201, created.body)
  key = (created.json() as { key: string }).key
})
after(async () => {
  await gateway.close()
  await echoing.close()
  await checking.close()
})

function chat(model: string) {
  return gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: bearer(key),
    payload: { model, messages: [{ role: 'user', content: 'Hi' }] },
  })
}

const rejectionLines = (provider: string) =>
  lines.filter((line) => line.provider === provider && /rejected the gateway's credentials/.test(String(line.msg)))

test('a 401 is logged with provider, status, the upstream message (key blanked) and the field to fix', async () => {
  echoing.script({ type: 'error', status: 401, message: `Incorrect API key provided: ${wrongKey}` })
  const response = await chat('acme/echo')
  assert.ok(response.statusCode >= 400, response.body)
  assert.doesNotMatch(response.body, /Incorrect API key/)
  const [line, ...others] = rejectionLines('echoer')
  assert.equal(others.length, 0)
  assert.equal(line?.level, 40)
  assert.equal(line?.upstream_status, 401)
  assert.equal(line?.upstream_message, 'Incorrect API key provided: [redacted]')
  assert.match(
    String(line?.msg),
    /^provider echoer rejected the gateway's credentials \(HTTP 401: Incorrect API key provided: \[redacted\]\); check providers\[0\]\.api_key in /,
  )
  assert.ok(!lines.some((logged) => JSON.stringify(logged).includes(wrongKey)), 'the key never reaches the log')
})

test('an upstream that checks the key: the wrong one sent in its header is rejected and logged', async () => {
  const response = await chat('acme/claude')
  assert.ok(response.statusCode >= 400, response.body)
  assert.equal(checking.requests.at(-1)?.headers['x-api-key'], wrongKey)
  const [line] = rejectionLines('claude')
  assert.equal(line?.upstream_status, 401)
  assert.match(String(line?.msg), /\(HTTP 401: Invalid API key\); check providers\[1\]\.api_key in /)
  assert.ok(!lines.some((logged) => JSON.stringify(logged).includes(wrongKey)))
})
