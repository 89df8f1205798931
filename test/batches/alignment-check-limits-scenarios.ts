// An alignment check is a call like any other: when the batch line it checks has spent a scope (a guardrail
// budget, a workspace budget, the key limit), the check is refused before it reaches the evaluator, nothing
// is billed past the limit, and the line's answer is delivered with the record the plugin gives an
// unavailable evaluator (`{outcome: "unavailable", reason: "evaluator_error"}`). The credit balance bounds a
// batch at admission only (docs/batches.md, Billing): a check of an admitted batch, like its next line, is
// counted, and the batch's results then answer 402 until a grant. Each row runs in its own workspace with
// its own key, on SQLite or PostgreSQL.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import type { CompletionReply } from '../fake-upstreams/scripted-reply.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { judgeReply } from './batch-alignment-scenarios.ts'
import { alignmentSchema } from './alignment-schema.ts'

export interface AlignmentLimitsSuite {
  readonly label: string
  readonly postgresUrl?: string | undefined
  readonly skip: string | false
}

const lineModel = 'test/chat'
const judgeModel = 'test/judge'
// Output tokens only, at $0.0001 each: a line with max_tokens 20 reserves exactly $0.002, and a check
// (a few answer tokens) reserves more than nothing.
const pricing = 'pricing: { prompt: "0", completion: "0.0001" }'
const lineMaxTokens = 20
const lineWorstCaseUsd = 0.002
const lineWorstCaseNano = 2_000_000
// The line's upstream reports more output than max_tokens: it is billed its reservation, the limit.
const lineReply: CompletionReply = {
  type: 'completion',
  text: 'We will look into your order.',
  usage: { input_tokens: 40, output_tokens: 50 },
}

interface Scope {
  readonly workspace: { readonly id: string; readonly slug: string }
  readonly key: string
  readonly hash: string
}

interface Row {
  readonly name: string
  /** Puts a limit of exactly the line's worst case on the row's scope. */
  readonly apply: (scope: Scope) => Promise<void>
}

interface LineResult {
  readonly id: string
  readonly error: { readonly type: string; readonly message: string } | null
  readonly response: { readonly status_code: number; readonly body: Record<string, unknown> } | null
}

export function defineAlignmentLimitScenarios(suite: AlignmentLimitsSuite): void {
  let lines: FakeUpstream
  let judge: FakeUpstream
  let gateway: TestGateway
  let creditsGateway: TestGateway
  const options = { skip: suite.skip }
  let workspaces = 0

  const yaml = (...extra: string[]) =>
    [
      'providers:',
      `  - { slug: lines, api: openai-chat, base_url: "${lines.url}" }`,
      `  - { slug: judge, api: openai-chat, base_url: "${judge.url}" }`,
      'models:',
      `  - slug: ${lineModel}`,
      `    endpoints: [{ provider: lines, upstream_model_id: chat-up, max_output_tokens: 100, ${pricing} }]`,
      `  - slug: ${judgeModel}`,
      `    endpoints: [{ provider: judge, upstream_model_id: judge-up, max_output_tokens: 100, ${pricing} }]`,
      `alignment: { evaluator_model: ${judgeModel} }`,
      'batches: { poll_interval_ms: 20, per_batch_concurrency: 1 }',
      ...extra,
      '',
    ].join('\n')

  before(async () => {
    if (suite.skip !== false) return
    lines = await startFakeUpstream({ api: 'openai-chat' })
    judge = await startFakeUpstream({ api: 'openai-chat' })
    const store = suite.postgresUrl === undefined ? {} : { postgresUrl: suite.postgresUrl }
    gateway = await startTestGateway({ ...store, yaml: yaml() })
    creditsGateway = await startTestGateway({ ...store, yaml: yaml('credits: { enforce: true }') })
  })
  after(async () => {
    if (suite.skip !== false) return
    await gateway.close()
    await creditsGateway.close()
    await Promise.all([lines.close(), judge.close()])
  })

  const send = async (
    on: TestGateway,
    key: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    body?: unknown,
  ) => {
    const answer = await on.inject({
      method,
      url,
      headers: { ...bearer(key), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    })
    return { status: answer.statusCode, body: answer.json() as Record<string, unknown> }
  }
  const manage = async (on: TestGateway, method: 'POST' | 'PUT' | 'PATCH', url: string, body: unknown) => {
    const answer = await send(on, on.adminKey, method, url, body)
    assert.ok(answer.status === 200 || answer.status === 201, `${method} ${url}: ${JSON.stringify(answer.body)}`)
    return answer.body as { data: { id: string; hash: string }; key: string }
  }

  async function newScope(on: TestGateway): Promise<Scope> {
    workspaces += 1
    const slug = `aligned-${workspaces}`
    const workspace = await manage(on, 'POST', '/api/v1/workspaces', { name: slug, slug })
    const created = await manage(on, 'POST', '/api/v1/keys', { name: slug, workspace_id: workspace.data.id })
    return { workspace: { id: workspace.data.id, slug }, key: created.key, hash: created.data.hash }
  }

  const keyUsageNano = async (on: TestGateway, hash: string): Promise<number> => {
    await on.drained()
    const view = await send(on, on.adminKey, 'GET', `/api/v1/keys/${hash}`)
    return Math.round((view.body.data as { usage: number }).usage * 1e9)
  }

  const submit = (on: TestGateway, key: string) =>
    send(on, key, 'POST', '/api/v1/batches', {
      endpoint: '/v1/chat/completions',
      model: lineModel,
      requests: [
        {
          custom_id: 'checked',
          body: {
            messages: [{ role: 'user', content: 'Where is my order?' }],
            max_tokens: lineMaxTokens,
            plugins: [{ id: 'alignment', rules: ['Never promise a refund.'] }],
          },
        },
      ],
    })

  /** Polls the batch until it has ended; fails only when it stops moving for a minute. */
  async function ended(on: TestGateway, key: string, id: string) {
    let deadline = Date.now() + 60_000
    let progress = ''
    for (;;) {
      const polled = await send(on, key, 'GET', `/api/v1/batches/${id}`)
      const batch = polled.body
      if (['completed', 'failed'].includes(batch.status as string)) return polled
      const now = JSON.stringify([batch.status, batch.request_counts])
      if (now !== progress) [progress, deadline] = [now, Date.now() + 60_000]
      assert.ok(Date.now() < deadline, `batch stopped moving: ${JSON.stringify(batch).slice(0, 300)}`)
      await sleep(20)
    }
  }

  const rows: readonly Row[] = [
    {
      name: 'the guardrail budget',
      apply: async (scope) => {
        const guardrail = await manage(gateway, 'POST', '/api/v1/guardrails', {
          name: `budget-${scope.workspace.slug}`,
          workspace_id: scope.workspace.id,
          limit_usd: lineWorstCaseUsd,
          reset_interval: 'daily',
        })
        await manage(gateway, 'POST', `/api/v1/guardrails/${guardrail.data.id}/assignments/keys`, {
          key_hashes: [scope.hash],
        })
      },
    },
    {
      name: 'the workspace daily budget',
      apply: async (scope) => {
        await manage(gateway, 'PUT', `/api/v1/workspaces/${scope.workspace.slug}/budgets/daily`, {
          limit_usd: lineWorstCaseUsd,
        })
      },
    },
    {
      name: 'the key limit',
      apply: async (scope) => {
        await manage(gateway, 'PATCH', `/api/v1/keys/${scope.hash}`, { limit: lineWorstCaseUsd })
      },
    },
  ]

  for (const row of rows)
    test(
      `${suite.label}: a line that spends ${row.name} is delivered; its alignment check is refused and unavailable`,
      options,
      async () => {
        const scope = await newScope(gateway)
        await row.apply(scope)
        await gateway.drained()
        const judgeCalls = judge.requests.length
        lines.script(lineReply)
        const submitted = await submit(gateway, scope.key)
        assert.equal(submitted.status, 202, JSON.stringify(submitted.body))
        const batch = await ended(gateway, scope.key, String(submitted.body.id))
        assert.equal(batch.status, 200)
        const [result] = batch.body.results as LineResult[]
        assert.equal(result!.error, null)
        assert.equal(result!.response!.status_code, 200)
        assert.match(JSON.stringify(result!.response!.body), /We will look into your order\./)
        const alignment = result!.response!.body.alignment
        assert.deepEqual(alignment, { calls: [{ call: 1, outcome: 'unavailable', reason: 'evaluator_error' }] })
        alignmentSchema.parse(alignment)
        // The check never reached the evaluator, and the scope was billed the line's reservation, no more.
        assert.equal(judge.requests.length, judgeCalls, 'the refused check reached the evaluator')
        assert.equal(await keyUsageNano(gateway, scope.hash), lineWorstCaseNano)
        const check = await gateway.findGeneration(`${result!.id}-alignment-1-1`)
        assert.equal(check?.record.costNano ?? 0n, 0n)
      },
    )

  test(
    `${suite.label}: credits bound a batch at admission; a check of an admitted batch is counted, then results answer 402`,
    options,
    async () => {
      const scope = await newScope(creditsGateway)
      await manage(creditsGateway, 'POST', '/api/v1/credits/grants', { amount: lineWorstCaseUsd })
      const judgeCalls = judge.requests.length
      lines.script(lineReply)
      judge.script(judgeReply(0.1))
      const submitted = await submit(creditsGateway, scope.key)
      assert.equal(submitted.status, 202, JSON.stringify(submitted.body))
      const owed = await ended(creditsGateway, scope.key, String(submitted.body.id))
      // The line spent the balance; its check ran like the batch's next line would, and the batch is owed.
      assert.equal(judge.requests.length, judgeCalls + 1)
      assert.equal(owed.status, 402, JSON.stringify(owed.body))
      assert.equal(owed.body.results, null)
      assert.ok((await keyUsageNano(creditsGateway, scope.hash)) > lineWorstCaseNano)
      // With the balance spent, the next batch (and so its checks) is refused at submission.
      const refused = await submit(creditsGateway, scope.key)
      assert.equal(refused.status, 402, JSON.stringify(refused.body))
      assert.equal(judge.requests.length, judgeCalls + 1)
    },
  )
}
