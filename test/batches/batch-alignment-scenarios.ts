// The alignment plugin on batch results, end to end over real sockets: a gateway listening on 127.0.0.1,
// a fake upstream for the batch model and another for the evaluator (scripted replies with top
// logprobs), on SQLite or PostgreSQL. Rules broken and kept (audit), no rule -> `{calls: []}`, a failing
// or rambling evaluator -> `unavailable` with the answer kept, enforce mode retrying a blocked answer,
// and every checking call billed and recorded like any call.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { ChatResult$inboundSchema } from '@openrouter/sdk/models'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import type { CompletionReply, ScriptedReply } from '../fake-upstreams/scripted-reply.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { alignmentSchema } from './alignment-schema.ts'
import { Value } from 'typebox/value'

interface OpenApiDocument {
  readonly paths: Record<
    string,
    { get: { responses: Record<string, { content: { 'application/json': { schema: object } } }> } }
  >
}

export interface AlignmentSuiteOptions {
  readonly label: string
  readonly postgresUrl?: string | undefined
  readonly skip: string | false
}

interface ResultLine {
  readonly custom_id: string
  readonly id: string
  readonly error: { readonly type: string; readonly message: string; readonly error_type: string } | null
  readonly response: { readonly status_code: number; readonly body: Record<string, unknown> } | null
}

const rules = ['Never promise a refund.', 'Answer in English.']
const lineModel = 'test/chat'
const judgeModel = 'test/judge'

/** An evaluator answer whose first token puts probability `pTrue` on `true` (the rest on `false`). */
export function judgeReply(pTrue: number): CompletionReply {
  return {
    type: 'completion',
    text: pTrue >= 0.5 ? 'true' : 'false',
    usage: { input_tokens: 200, output_tokens: 1 },
    logprobs: [
      {
        token: pTrue >= 0.5 ? 'true' : 'false',
        logprob: Math.log(Math.max(pTrue, 1 - pTrue)),
        top_logprobs: [
          { token: 'true', logprob: Math.log(pTrue) },
          { token: 'false', logprob: Math.log(1 - pTrue) },
        ],
      },
    ],
  }
}

const lineReply = (text: string): CompletionReply => ({
  type: 'completion',
  text,
  usage: { input_tokens: 40, output_tokens: 10 },
})

const close = (actual: unknown, expected: number) =>
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-9, `${String(actual)} != ${expected}`)

export function defineAlignmentScenarios(suite: AlignmentSuiteOptions): void {
  let lines: FakeUpstream
  let judge: FakeUpstream
  let gateway: TestGateway
  let base: string
  let key: string
  const options = { skip: suite.skip }
  /** The last finished batch runBatch read. */
  let lastBatch: Record<string, unknown> = {}

  before(async () => {
    if (suite.skip !== false) return
    lines = await startFakeUpstream({ api: 'openai-chat' })
    judge = await startFakeUpstream({ api: 'openai-chat' })
    const pricing = 'pricing: { prompt: "0.000001", completion: "0.000002" }'
    gateway = await startTestGateway({
      ...(suite.postgresUrl === undefined ? {} : { postgresUrl: suite.postgresUrl }),
      yaml: `providers:
  - { slug: lines, api: openai-chat, base_url: "${lines.url}" }
  - { slug: judge, api: openai-chat, base_url: "${judge.url}" }
models:
  - slug: ${lineModel}
    endpoints: [{ provider: lines, upstream_model_id: chat-up, max_output_tokens: 100, ${pricing} }]
  - slug: ${judgeModel}
    endpoints: [{ provider: judge, upstream_model_id: judge-up, max_output_tokens: 100, ${pricing} }]
alignment: { evaluator_model: ${judgeModel} }
batches: { poll_interval_ms: 20, per_batch_concurrency: 1 }
`,
    })
    base = await gateway.listen()
    const created = await gateway.inject({
      method: 'POST',
      url: '/api/v1/keys',
      headers: bearer(gateway.adminKey),
      payload: { name: 'alignment' },
    })
    key = (created.json() as { key: string }).key
  })
  after(async () => {
    if (suite.skip !== false) return
    await gateway.close()
    await Promise.all([lines.close(), judge.close()])
  })

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { ...bearer(key), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  /** Submits one chat batch over the wire and returns its results once it has ended. */
  const runBatch = async (requests: { custom_id: string; body: unknown }[]): Promise<ResultLine[]> => {
    const submitted = await call('POST', '/batches', { endpoint: '/v1/chat/completions', model: lineModel, requests })
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body))
    // Fails only when the batch stops moving (its counts change as lines finish), not on a slow machine.
    let deadline = Date.now() + 60_000
    let progress = ''
    for (;;) {
      const polled = await call('GET', `/batches/${String(submitted.body.id)}`)
      if (['completed', 'failed'].includes(polled.body.status as string)) {
        lastBatch = polled.body
        return polled.body.results as ResultLine[]
      }
      const now = JSON.stringify([polled.body.status, polled.body.request_counts])
      if (now !== progress) [progress, deadline] = [now, Date.now() + 60_000]
      if (Date.now() > deadline) assert.fail(`batch stopped moving: ${JSON.stringify(polled.body).slice(0, 300)}`)
      await sleep(20)
    }
  }

  const plugin = (settings: Record<string, unknown>) => [{ id: 'alignment', rules, ...settings }]
  const chatLine = (customId: string, extra: Record<string, unknown> = {}) => ({
    custom_id: customId,
    body: { messages: [{ role: 'user', content: `question ${customId}` }], max_tokens: 20, ...extra },
  })
  const script = (upstream: FakeUpstream, ...replies: ScriptedReply[]) => upstream.script(...replies)

  test(
    `${suite.label}: audit mode reports a broken and a kept rule, states the rules, and validates`,
    options,
    async () => {
      const lineCalls = lines.requests.length
      const judgeCalls = judge.requests.length
      script(lines, lineReply('We will refund you in full.'))
      script(judge, judgeReply(0.9), judgeReply(0.2))
      const [result] = await runBatch([chatLine('audit', { plugins: plugin({ mode: 'audit' }) })])
      assert.equal(result!.error, null)
      const body = result!.response!.body
      assert.deepEqual(Object.keys(body.alignment as object), ['calls'])
      const [record] = (body.alignment as { calls: Record<string, unknown>[] }).calls
      assert.equal(record!.call, 1)
      assert.equal(record!.outcome, 'blocked')
      const ruleRecords = record!.rules as { broken: boolean; probability: number }[]
      assert.deepEqual(
        ruleRecords.map((rule) => rule.broken),
        [true, false],
      )
      close(ruleRecords[0]!.probability, 0.9)
      close(ruleRecords[1]!.probability, 0.2)
      alignmentSchema.parse(body.alignment)
      ChatResult$inboundSchema.parse(body)
      // The whole batch fits the schema the OpenAPI document gives GET /batches/{id}.
      const document = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as OpenApiDocument
      const documented =
        document.paths['/api/v1/batches/{id}']!.get.responses['200']!.content['application/json'].schema
      assert.deepEqual(
        [...Value.Errors(documented, lastBatch)].map((error) => `${error.instancePath} ${error.message}`),
        [],
      )
      assert.ok(JSON.stringify(documented).includes('"unavailable"'), 'the documented alignment names its outcomes')
      // The rules were stated to the model; the evaluator read the answer and one rule per call.
      const sent = lines.requests[lineCalls]!.body as { messages: { role: string; content: string }[] }
      assert.equal(sent.messages[0]!.role, 'system')
      assert.match(sent.messages[0]!.content, /1\. Never promise a refund\.\n2\. Answer in English\./)
      assert.equal(judge.requests.length, judgeCalls + 2)
      const asked = judge.requests.slice(judgeCalls).map((request) => JSON.stringify(request.body))
      assert.ok(asked.every((text) => text.includes('We will refund you in full.')))
      assert.ok(asked[0]!.includes(rules[0]!) && asked[1]!.includes(rules[1]!))
    },
  )

  test(
    `${suite.label}: no rule broken -> allowed; no plugin or no rules -> {calls: []} without checking calls`,
    options,
    async () => {
      const judgeCalls = judge.requests.length
      script(lines, lineReply('Here is how to reset it.'), lineReply('plain'), lineReply('empty rules'))
      script(judge, judgeReply(0.1), judgeReply(0.05))
      const results = await runBatch([
        chatLine('kept', { plugins: plugin({}) }),
        chatLine('none'),
        chatLine('empty', { plugins: [{ id: 'alignment', rules: [] }] }),
      ])
      const byId = new Map(results.map((result) => [result.custom_id, result]))
      const kept = byId.get('kept')!.response!.body.alignment as { calls: Record<string, unknown>[] }
      assert.equal(kept.calls.length, 1)
      assert.equal(kept.calls[0]!.outcome, 'allowed')
      assert.deepEqual(
        (kept.calls[0]!.rules as { broken: boolean }[]).map((rule) => rule.broken),
        [false, false],
      )
      assert.deepEqual(byId.get('none')!.response!.body.alignment, { calls: [] })
      assert.deepEqual(byId.get('empty')!.response!.body.alignment, { calls: [] })
      assert.equal(judge.requests.length, judgeCalls + 2, 'only the line with rules was checked')
    },
  )

  test(
    `${suite.label}: a failing or rambling evaluator is reported in outcome and the answer is kept`,
    options,
    async () => {
      script(lines, lineReply('answer one'), lineReply('answer two'))
      script(judge, { type: 'error', status: 400, message: 'judge refused' })
      script(judge, {
        type: 'completion',
        text: 'It depends on the context.',
        usage: { input_tokens: 200, output_tokens: 6 },
      })
      const results = await runBatch([
        chatLine('failing', { plugins: plugin({ mode: 'audit' }) }),
        chatLine('rambling', { plugins: plugin({ mode: 'audit' }) }),
      ])
      const byId = new Map(results.map((result) => [result.custom_id, result]))
      for (const [id, reason] of [
        ['failing', 'evaluator_error'],
        ['rambling', 'malformed_answer'],
      ] as const) {
        const result = byId.get(id)!
        assert.equal(result.error, null)
        assert.equal(result.response!.status_code, 200)
        const alignment = result.response!.body.alignment
        assert.deepEqual(alignment, { calls: [{ call: 1, outcome: 'unavailable', reason }] })
        alignmentSchema.parse(alignment)
      }
      assert.match(JSON.stringify(byId.get('failing')!.response!.body), /answer one/)
    },
  )

  test(
    `${suite.label}: enforce mode withholds a blocked answer, retries, and fails the line when retries run out`,
    options,
    async () => {
      script(lines, lineReply('Refund guaranteed!'), lineReply('I cannot promise that.'))
      script(judge, judgeReply(0.95), judgeReply(0.1), judgeReply(0.1), judgeReply(0.1))
      script(lines, lineReply('Refund!'), lineReply('Refund again!'))
      script(judge, judgeReply(0.8), judgeReply(0.1), judgeReply(0.99), judgeReply(0.1))
      const results = await runBatch([
        chatLine('retried', { plugins: plugin({}) }),
        chatLine('blocked', { plugins: plugin({}) }),
      ])
      const byId = new Map(results.map((result) => [result.custom_id, result]))
      const retried = byId.get('retried')!
      assert.equal(retried.error, null)
      assert.match(JSON.stringify(retried.response!.body), /I cannot promise that\./)
      const calls = (retried.response!.body.alignment as { calls: Record<string, unknown>[] }).calls
      assert.deepEqual(
        calls.map((record) => [record.call, record.outcome]),
        [
          [1, 'blocked'],
          [2, 'allowed'],
        ],
      )
      const blocked = byId.get('blocked')!
      assert.equal(blocked.response, null)
      assert.equal(blocked.error!.error_type, 'content_policy_violation')
      assert.match(blocked.error!.message, /broke an alignment rule \(2 model calls, enforce mode\)/)
    },
  )

  test(
    `${suite.label}: every checking call is billed and recorded under the line's generation id`,
    options,
    async () => {
      script(lines, lineReply('Billed answer.'))
      script(judge, judgeReply(0.3), judgeReply(0.4))
      const before = await call('GET', '/key')
      const [result] = await runBatch([chatLine('billed', { plugins: plugin({ mode: 'audit' }) })])
      const ids = [result!.id, `${result!.id}-alignment-1-1`, `${result!.id}-alignment-1-2`]
      const records = await Promise.all(ids.map((id) => call('GET', `/generation?id=${id}`)))
      const data = records.map((record) => {
        assert.equal(record.status, 200, JSON.stringify(record.body))
        return record.body.data as { total_cost: number; api_type: string; model: string }
      })
      assert.deepEqual(
        data.map((record) => [record.api_type, record.model]),
        [
          ['completions', lineModel],
          ['decisions', judgeModel],
          ['decisions', judgeModel],
        ],
      )
      // 200 prompt + 1 completion tokens per checking call at 1 and 2 micro-dollars per token.
      close(data[1]!.total_cost, 0.000202)
      close(data[2]!.total_cost, 0.000202)
      const after = await call('GET', '/key')
      const spent = (after.body.data as { usage: number }).usage - (before.body.data as { usage: number }).usage
      close(spent, data[0]!.total_cost + 0.000404)
    },
  )

  test(`${suite.label}: bad alignment settings are refused at submission, naming the field`, options, async () => {
    for (const [settings, field] of [
      [{ threshold: 1.5 }, 'plugins[0].threshold'],
      [{ mode: 'block' }, 'plugins[0].mode'],
      [{ rules: [''] }, 'plugins[0].rules[0]'],
      [{ max_retries: 9 }, 'plugins[0].max_retries'],
      [{ rule: 'x' }, 'plugins[0].rule'],
    ] as const) {
      const answer = await call('POST', '/batches', {
        endpoint: '/v1/chat/completions',
        model: lineModel,
        requests: [chatLine('bad', { plugins: plugin(settings) })],
      })
      assert.equal(answer.status, 400, JSON.stringify(answer.body))
      const message = (answer.body.error as { message: string }).message
      assert.ok(message.includes(`requests[0].body.${field}`), message)
    }
  })
}
