// Who can read /metrics: anyone by default; a management key with `metrics.require_management_key`;
// with `metrics.port`, only a listener of its own serves it (and the main port answers 404).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

async function inferenceKey(gateway: TestGateway): Promise<string> {
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'not-for-metrics' },
  })
  return (created.json() as { key: string }).key
}

const errorCode = (body: string): number => (JSON.parse(body) as { error: { code: number } }).error.code

test('by default /metrics is open on the main port and there is no metrics listener', async () => {
  const gateway = await startTestGateway()
  try {
    const response = await gateway.inject({ method: 'GET', url: '/metrics' })
    assert.equal(response.statusCode, 200)
    assert.match(response.body, /^# HELP switchyard_/m)
    assert.equal(gateway.gateway.app.metricsListener, null)
  } finally {
    await gateway.close()
  }
})

test('metrics.require_management_key: no key 401, an inference key 403, a management key 200', async () => {
  const gateway = await startTestGateway({ yaml: 'metrics: { require_management_key: true }\n' })
  try {
    const anonymous = await gateway.inject({ method: 'GET', url: '/metrics' })
    assert.equal(anonymous.statusCode, 401)
    assert.equal(errorCode(anonymous.body), 401)
    const inference = await gateway.inject({
      method: 'GET',
      url: '/metrics',
      headers: bearer(await inferenceKey(gateway)),
    })
    assert.equal(inference.statusCode, 403)
    assert.match(inference.body, /Only management keys/)
    const management = await gateway.inject({ method: 'GET', url: '/metrics', headers: bearer(gateway.adminKey) })
    assert.equal(management.statusCode, 200)
    assert.match(management.body, /^# TYPE switchyard_http_requests_total counter$/m)
    assert.equal((await gateway.inject({ method: 'GET', url: '/health' })).statusCode, 200, '/health stays open')
  } finally {
    await gateway.close()
  }
})

test('metrics.port: the main port answers 404, the metrics listener serves /metrics and nothing else', async () => {
  const gateway = await startTestGateway({ yaml: 'metrics: { port: 0, host: 127.0.0.1 }\n' })
  try {
    const main = await gateway.inject({ method: 'GET', url: '/metrics' })
    assert.equal(main.statusCode, 404)
    assert.equal(errorCode(main.body), 404)
    const listener = gateway.gateway.app.metricsListener
    assert.ok(listener !== null)
    const base = await listener.listen({ host: '127.0.0.1', port: 0 })
    await gateway.inject({ method: 'GET', url: '/health' })
    const scraped = await fetch(`${base}/metrics`)
    assert.equal(scraped.status, 200)
    assert.match(await scraped.text(), /switchyard_http_requests_total\{method="GET",route="\/health",status="200"\} 1/)
    const other = await fetch(`${base}/api/v1/models`)
    assert.equal(other.status, 404)
    assert.equal(errorCode(await other.text()), 404)
  } finally {
    await gateway.close()
  }
})

test('metrics.port with require_management_key: the metrics listener asks for a management key too', async () => {
  const gateway = await startTestGateway({ yaml: 'metrics: { port: 0, require_management_key: true }\n' })
  try {
    const base = await gateway.gateway.app.metricsListener!.listen({ host: '127.0.0.1', port: 0 })
    const anonymous = await fetch(`${base}/metrics`)
    assert.equal(anonymous.status, 401)
    assert.equal(errorCode(await anonymous.text()), 401)
    const inference = await fetch(`${base}/metrics`, { headers: bearer(await inferenceKey(gateway)) })
    assert.equal(inference.status, 403)
    const management = await fetch(`${base}/metrics`, { headers: bearer(gateway.adminKey) })
    assert.equal(management.status, 200)
    assert.match(await management.text(), /^# HELP switchyard_/m)
  } finally {
    await gateway.close()
  }
})
