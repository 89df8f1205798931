// Active endpoints are stored and loaded at start: a second gateway on the same store routes to an
// endpoint the first one activated (same master key), with its credential sealed at rest. SQLite always,
// PostgreSQL when TEST_DATABASE_URL is set.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { startFakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, type TestGatewayOptions } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { createWorkspaceKey, endpointBody, manage } from './private-endpoint-kit.ts'

const engines: { name: string; options: TestGatewayOptions; skip: string | false }[] = [
  { name: 'sqlite', options: {}, skip: false },
  {
    name: 'postgres',
    options: postgresTarget().url === undefined ? {} : { postgresUrl: postgresTarget().url! },
    skip: postgresTarget().skip,
  },
]

for (const engine of engines) {
  test(`an active endpoint survives a restart (${engine.name})`, { skip: engine.skip }, async () => {
    const upstream = await startFakeUpstream({ api: 'anthropic', apiKey: 'pe-secret' })
    const yaml = 'egress: { allow_private_networks: true }\n'
    const env = { SWITCHYARD_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') }
    const first = await startTestGateway({ ...engine.options, yaml, env })
    try {
      const { key, workspaceId } = await createWorkspaceKey(first, null)
      const body = endpointBody(upstream.url, {
        provider_slug: 'anthropic',
        model_permaslug: 'acme/claude-like',
        activate: { workspace_id: workspaceId },
      })
      const created = await manage(first, 'POST', '/private-endpoints', body)
      assert.equal(created.status, 201, created.text)
      const row = await first.store.db
        .selectFrom('private_endpoints')
        .select(['credential'])
        .where('id', '=', created.body.data.endpoint.id)
        .executeTakeFirstOrThrow()
      assert.doesNotMatch(row.credential ?? '', /pe-secret/)
      const second = await startTestGateway({ databaseUrl: first.database.url, yaml, env })
      try {
        const base = await second.listen()
        upstream.script({ type: 'completion', text: 'after restart' })
        const answer = await new OpenAI({ apiKey: key, baseURL: `${base}/api/v1`, maxRetries: 0 }).responses.create({
          model: 'acme/claude-like',
          input: 'hi',
        })
        assert.equal(answer.output_text, 'after restart')
        assert.equal(upstream.requests.at(-1)?.headers['x-api-key'], 'pe-secret')
      } finally {
        await second.close()
      }
    } finally {
      await first.close()
      await upstream.close()
    }
  })
}
