// Generation records: visible at once (before the batched write), stored on both engines, readable
// only from their workspace, with the generation id validated.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { createApiKeysRepository } from '../../src/store/repositories/api-keys-repository.ts'
import { createOrganizationsRepository } from '../../src/store/repositories/organizations-repository.ts'
import { generateKeySecret, hashKeySecret, labelKeySecret } from '../../src/identity/api-key-secret.ts'
import type { GenerationRecord } from '../../src/generations/generation-record.ts'

const postgres = postgresTarget()

for (const engine of [
  { name: 'sqlite', skip: false as string | false, url: undefined as string | undefined },
  { name: 'postgres', skip: postgres.skip, url: postgres.url },
]) {
  describe(`generation records on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    let inferenceKey: string
    let otherWorkspaceKey: string

    async function mint(workspaceId: string): Promise<string> {
      const plaintext = generateKeySecret()
      await createApiKeysRepository(gateway.store.db).insert({
        hash: hashKeySecret(plaintext),
        kind: 'inference',
        name: 'k',
        label: labelKeySecret(plaintext),
        organizationId: gateway.gateway.bootstrap.organizationId,
        workspaceId,
        createdAt: new Date().toISOString(),
      })
      return plaintext
    }

    before(async () => {
      gateway = await startTestGateway(engine.url === undefined ? {} : { postgresUrl: engine.url })
      inferenceKey = await mint(gateway.gateway.bootstrap.defaultWorkspaceId)
      const otherWorkspace = randomUUID()
      await createOrganizationsRepository(gateway.store.db).insertWorkspace({
        id: otherWorkspace,
        organizationId: gateway.gateway.bootstrap.organizationId,
        name: 'Other',
        slug: `other-${otherWorkspace.slice(0, 8)}`,
        isDefault: false,
        createdBy: null,
        createdAt: new Date().toISOString(),
      })
      otherWorkspaceKey = await mint(otherWorkspace)
    })
    after(() => gateway.close())

    function record(id: string): GenerationRecord {
      return {
        id,
        requestId: 'req-1',
        organizationId: gateway.gateway.bootstrap.organizationId,
        workspaceId: gateway.gateway.bootstrap.defaultWorkspaceId,
        keyHash: hashKeySecret(inferenceKey),
        apiType: 'completions',
        dialect: 'openai-chat',
        model: 'acme/fast-1',
        provider: 'acme',
        upstreamModelId: 'fast-1',
        upstreamId: 'chatcmpl-1',
        streamed: true,
        cancelled: false,
        status: 'completed',
        finishReason: 'stop',
        nativeFinishReason: 'stop',
        tokensPrompt: 12,
        tokensCompletion: 5,
        tokensCached: 2,
        tokensReasoning: 0,
        costNano: 6_400n,
        unbilledExcessNano: 0n,
        responseCacheSourceId: null,
        isByok: false,
        latencyMs: 30,
        generationTimeMs: 120,
        sessionId: 's-1',
        endUser: 'user-1',
        preset: null,
        serviceTier: null,
        attempts: [{ model: 'acme/fast-1', provider: 'acme', endpointId: 'acme/fast-1', status: 200, latencyMs: 30 }],
        errorStatus: null,
        errorMessage: null,
        httpReferer: null,
        userAgent: null,
        createdAt: new Date().toISOString(),
      }
    }

    test('a record is readable before and after the batched write, with its content', async () => {
      const id = `gen-${randomUUID()}`
      // internals: the first phase reads a record still queued in the gateway's own group commit.
      gateway.internals.accounting.generations.add(record(id), {
        input: { messages: [{ role: 'user', content: 'Hi' }] },
        completion: 'Hello!',
        reasoning: null,
        error: null,
      })
      for (const phase of ['pending', 'stored']) {
        const meta = await gateway.inject({
          method: 'GET',
          url: `/api/v1/generation?id=${id}`,
          headers: bearer(inferenceKey),
        })
        assert.equal(meta.statusCode, 200, phase)
        const data = (meta.json() as { data: Record<string, unknown> }).data
        assert.equal(data.total_cost, 0.0000064)
        assert.equal(data.tokens_prompt, 12)
        assert.equal(data.native_tokens_cached, 2)
        assert.equal(data.session_id, 's-1')
        const content = await gateway.inject({
          method: 'GET',
          url: `/api/v1/generation/content?id=${id}`,
          headers: bearer(inferenceKey),
        })
        assert.deepEqual((content.json() as { data: unknown }).data, {
          input: { messages: [{ role: 'user', content: 'Hi' }] },
          output: { completion: 'Hello!', reasoning: null },
          error: null,
        })
        await gateway.drained()
      }
      const row = await gateway.store.db
        .selectFrom('generations')
        .select(['cost_nano', 'attempts'])
        .where('id', '=', id)
        .executeTakeFirst()
      assert.equal(row?.cost_nano, '6400')
    })

    test('another workspace cannot see it; management keys can; unknown ids are 404', async () => {
      const id = `gen-${randomUUID()}`
      await gateway.storeGenerations([{ record: record(id), content: null }])
      assert.equal(
        (
          await gateway.inject({
            method: 'GET',
            url: `/api/v1/generation?id=${id}`,
            headers: bearer(otherWorkspaceKey),
          })
        ).statusCode,
        404,
      )
      assert.equal(
        (await gateway.inject({ method: 'GET', url: `/api/v1/generation?id=${id}`, headers: bearer(gateway.adminKey) }))
          .statusCode,
        200,
      )
      assert.equal(
        (
          await gateway.inject({
            method: 'GET',
            url: `/api/v1/generation/content?id=${id}`,
            headers: bearer(inferenceKey),
          })
        ).statusCode,
        404,
        'no content stored',
      )
      assert.equal(
        (
          await gateway.inject({
            method: 'GET',
            url: '/api/v1/generation?id=gen-unknown',
            headers: bearer(inferenceKey),
          })
        ).statusCode,
        404,
      )
    })

    test('content older than the retention period is deleted; the record stays', async () => {
      const { ContentRetention } = await import('../../src/generations/content-retention.ts')
      const { ManualClock } = await import('../support/manual-clock.ts')
      const id = `gen-${randomUUID()}`
      await gateway.storeGenerations([
        {
          record: { ...record(id), createdAt: '2026-01-01T00:00:00.000Z' },
          content: { input: { messages: [] }, completion: 'old', reasoning: null, error: null },
        },
      ])
      const clock = new ManualClock('2026-01-30T23:59:59.000Z')
      const retention = new ContentRetention(gateway.generations, clock, 30, (error) => assert.fail(String(error)))
      assert.equal(await retention.sweep(), 0, 'not yet 30 days old')
      clock.set('2026-01-31T00:00:01.000Z')
      assert.equal(await retention.sweep(), 1)
      assert.equal(
        (
          await gateway.inject({
            method: 'GET',
            url: `/api/v1/generation/content?id=${id}`,
            headers: bearer(inferenceKey),
          })
        ).statusCode,
        404,
      )
      assert.equal(
        (await gateway.inject({ method: 'GET', url: `/api/v1/generation?id=${id}`, headers: bearer(inferenceKey) }))
          .statusCode,
        200,
      )
    })

    test('the id must match ^gen-[0-9A-Za-z-]+$ and be at most 128 characters', async () => {
      const at = `gen-${'a'.repeat(124)}`
      assert.equal(at.length, 128)
      assert.equal(
        (await gateway.inject({ method: 'GET', url: `/api/v1/generation?id=${at}`, headers: bearer(inferenceKey) }))
          .statusCode,
        404,
      )
      for (const bad of [`${at}b`, 'gen_abc', 'abc', 'gen-a%2Fb', '']) {
        const response = await gateway.inject({
          method: 'GET',
          url: `/api/v1/generation/content?id=${bad}`,
          headers: bearer(inferenceKey),
        })
        assert.equal(response.statusCode, 400, bad)
        assert.match((response.json() as { error: { message: string } }).error.message, /querystring\.id/)
      }
      assert.equal(
        (await gateway.inject({ method: 'GET', url: '/api/v1/generation', headers: bearer(inferenceKey) })).statusCode,
        400,
      )
    })
  })
}
