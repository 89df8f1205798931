// The endpoint checks against real servers: every provider API family validates when healthy; an
// unreachable host fails auth_ok; an upstream that never answers times the validation out (408).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startFakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { providerApis } from '../../src/domain/inference/provider-api.ts'
import { GatewayError } from '../../src/domain/errors.ts'
import { UpstreamTransport } from '../../src/inference/upstream/upstream-transport.ts'
import { runEndpointChecks } from '../../src/inference/private-endpoints/run-endpoint-checks.ts'
import { toPrivateEndpointEntry } from '../../src/inference/catalog/private-endpoint-entry.ts'
import type { PrivateEndpointRecord } from '../../src/private-endpoints/private-endpoint-record.ts'
import type { ProviderApi } from '../../src/domain/inference/provider-api.ts'

function record(api: ProviderApi, baseUrl: string): PrivateEndpointRecord {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    organizationId: 'org',
    workspaceId: null,
    modelPermaslug: 'acme/m',
    modelName: 'acme/m',
    providerSlug: api,
    providerName: api,
    api,
    upstreamModelId: 'm-1',
    baseUrl,
    declaredRegion: null,
    declaredZdr: null,
    pricing: { prompt: '0.000001', completion: '0.000002' },
    status: 'draft',
    sealedCredential: null,
    validation: null,
    validatedAt: null,
    validatedWorkspaceId: null,
    validatedRevision: null,
    revision: 0,
    everActivated: false,
    idempotencyKey: null,
    idempotencyFingerprint: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }
}

for (const api of providerApis) {
  test(`a healthy ${api} endpoint passes every check`, async () => {
    const upstream = await startFakeUpstream({ api, apiKey: 'k' })
    const transport = new UpstreamTransport()
    try {
      const validation = await runEndpointChecks(toPrivateEndpointEntry(record(api, upstream.url), 'k'), {
        transport,
        timeoutMs: 10_000,
      })
      assert.equal(validation.passed, true, JSON.stringify(validation))
      assert.equal(upstream.requests.length, 2)
      assert.equal(
        upstream.requests.filter(
          (request) =>
            request.path.includes('stream') || (request.body as { stream?: boolean } | undefined)?.stream === true,
        ).length,
        1,
      )
    } finally {
      await transport.close()
      await upstream.close()
    }
  })
}

test('an unreachable host fails auth_ok and the checks after it', async () => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  const transport = new UpstreamTransport()
  try {
    const validation = await runEndpointChecks(
      toPrivateEndpointEntry(record('openai-chat', `http://127.0.0.1:${port}/v1`), null),
      { transport, timeoutMs: 10_000 },
    )
    assert.equal(validation.passed, false)
    assert.equal(validation.checks[0]?.name, 'auth_ok')
    assert.equal(validation.checks[0]?.reason, 'upstream_error')
    assert.match(validation.checks[0]?.upstream_message ?? '', /unreachable/)
    assert.ok(validation.checks.every((check) => !check.passed))
  } finally {
    await transport.close()
  }
})

test('an upstream that never answers times the validation out as 408', async () => {
  const pending: ServerResponse[] = []
  const server = createServer((_request, response) => void pending.push(response))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const transport = new UpstreamTransport()
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
    await assert.rejects(
      runEndpointChecks(toPrivateEndpointEntry(record('openai-chat', url), null), { transport, timeoutMs: 200 }),
      (error: unknown) => {
        assert.ok(error instanceof GatewayError)
        assert.equal(error.status, 408)
        return true
      },
    )
  } finally {
    await transport.close()
    for (const response of pending) response.destroy()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})
