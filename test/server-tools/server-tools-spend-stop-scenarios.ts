// A server-tool loop whose next step a spend limit refuses: it stops and answers with the steps it ran
// (200, status `incomplete`, `incomplete_details.reason` naming the limit), billed for exactly those steps;
// when not even the first step fits, the answer is the 402 and nothing is billed. On SQLite or PostgreSQL.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { bearer } from '../support/test-gateway.ts'
import { nano, startServerToolsWorld, tools, usage, type ServerToolsWorld } from './server-tools-world.ts'

export interface SpendStopSuite {
  readonly label: string
  readonly postgresUrl?: string | undefined
  readonly skip: string | false
}

let world: ServerToolsWorld

// A step's worst case is about $0.002 of output (1000 tokens at the endpoint's limit) plus its input; the
// first step reports $0.00181, so $0.003 affords the first step but not a second.
const affordsOneStep = 0.003
const affordsNothing = 0.001

interface LimitedKey {
  readonly key: string
  readonly hash: string
}

async function limitedKey(limit: number): Promise<LimitedKey> {
  const created = await world.gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(world.gateway.adminKey),
    payload: { name: `limited ${limit}`, limit },
  })
  assert.equal(created.statusCode, 201, created.body)
  const body = created.json() as { key: string; data: { hash: string } }
  return { key: body.key, hash: body.data.hash }
}

/** Only the first step is scripted: the second must never reach the upstream. */
function scriptToolCall(): void {
  world.upstream.script({
    type: 'completion',
    toolCalls: [{ id: 'call_dt', name: 'openrouter_datetime', arguments: '{}' }],
    usage: usage(10, 900),
  })
}

const body = { model: 'test/agent', input: 'What time is it?', tools }

interface Billed {
  readonly generationCostNano: bigint | undefined
  readonly ledger: readonly { attempt: number; costNano: bigint }[]
  readonly keyUsageNano: number
}

async function billed(key: LimitedKey, generationId: string | null): Promise<Billed> {
  const { gateway } = world
  await gateway.drained()
  const rows = await gateway.store.db
    .selectFrom('ledger_entries')
    .select(['attempt', 'cost_nano'])
    .where('key_hash', '=', key.hash)
    .orderBy('attempt')
    .execute()
  const keyView = (
    await gateway.inject({ method: 'GET', url: `/api/v1/keys/${key.hash}`, headers: bearer(gateway.adminKey) })
  ).json() as { data: { usage: number } }
  const generation = generationId === null ? undefined : await gateway.findGeneration(generationId)
  return {
    generationCostNano: generation?.record.costNano,
    ledger: rows.map((row) => ({ attempt: Number(row.attempt), costNano: BigInt(row.cost_nano) })),
    keyUsageNano: Math.round(keyView.data.usage * 1e9),
  }
}

function assertBilledFirstStepOnly(bill: Billed): void {
  const firstStep = nano(10, 900)
  assert.equal(bill.generationCostNano, BigInt(firstStep))
  assert.deepEqual(bill.ledger, [{ attempt: 1, costNano: BigInt(firstStep) }])
  assert.equal(bill.keyUsageNano, firstStep)
}

export function defineSpendStopScenarios(suite: SpendStopSuite): void {
  const options = { skip: suite.skip }
  before(async () => {
    if (suite.skip === false) world = await startServerToolsWorld({ postgresUrl: suite.postgresUrl })
  })
  after(async () => {
    if (suite.skip === false) await world.close()
  })

  test(
    `${suite.label}: a key limit that affords the first step but not the second: 200 incomplete with the first step (json)`,
    options,
    async () => {
      const key = await limitedKey(affordsOneStep)
      const first = world.upstream.requests.length
      scriptToolCall()
      const response = await fetch(`${world.base}/api/v1/responses`, {
        method: 'POST',
        headers: { ...bearer(key.key), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      const answer = (await response.json()) as {
        id: string
        status: string
        incomplete_details: { reason: string } | null
        output: { type: string; status?: string }[]
        usage: { cost: number; output_tokens: number; server_tool_use_details: Record<string, number> }
      }
      assert.equal(response.status, 200, JSON.stringify(answer))
      assert.equal(answer.status, 'incomplete')
      assert.deepEqual(answer.incomplete_details, { reason: 'key_limit' })
      assert.deepEqual(
        answer.output.map((item) => [item.type, item.status]),
        [['openrouter:datetime', 'completed']],
      )
      assert.equal(Math.round(answer.usage.cost * 1e9), nano(10, 900))
      assert.equal(answer.usage.output_tokens, 900)
      assert.equal(answer.usage.server_tool_use_details.tool_calls_executed, 1)
      assert.equal(world.upstream.requests.length - first, 1, 'the refused step never reached the upstream')
      assertBilledFirstStepOnly(await billed(key, answer.id))
      const record = await world.gateway.findGeneration(answer.id)
      assert.equal(record?.record.status, 'completed')
      assert.equal(record?.record.finishReason, 'length')
    },
  )

  test(
    `${suite.label}: a key limit that affords the first step but not the second: response.incomplete ends the stream`,
    options,
    async () => {
      const key = await limitedKey(affordsOneStep)
      const first = world.upstream.requests.length
      scriptToolCall()
      const client = new OpenAI({ apiKey: key.key, baseURL: `${world.base}/api/v1`, maxRetries: 0 })
      const stream = await client.responses.create({ ...body, tools: tools as never, stream: true })
      const events: string[] = []
      let final: { id: string; status?: string; incomplete_details: unknown; output: { type: string }[] } | undefined
      for await (const event of stream) {
        events.push(event.type)
        if (event.type === 'response.incomplete' || event.type === 'response.completed') final = event.response as never
      }
      assert.equal(events.at(-1), 'response.incomplete', events.join(' '))
      assert.equal(events.includes('error'), false)
      assert.equal(final?.status, 'incomplete')
      assert.deepEqual(final?.incomplete_details, { reason: 'key_limit' })
      assert.deepEqual(
        final?.output.map((item) => item.type),
        ['openrouter:datetime'],
      )
      assert.equal(world.upstream.requests.length - first, 1)
      assertBilledFirstStepOnly(await billed(key, final!.id))
    },
  )

  for (const stream of [false, true]) {
    test(
      `${suite.label}: a key limit that affords no step: 402 naming the limit, nothing called or billed (${stream ? 'stream' : 'json'})`,
      options,
      async () => {
        const key = await limitedKey(affordsNothing)
        const first = world.upstream.requests.length
        const response = await fetch(`${world.base}/api/v1/responses`, {
          method: 'POST',
          headers: { ...bearer(key.key), 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, stream }),
        })
        assert.equal(response.status, 402)
        const error = (await response.json()) as { error: { code: number; message: string } }
        assert.equal(error.error.code, 402)
        assert.match(error.error.message, /Key limit/)
        assert.equal(world.upstream.requests.length, first)
        const bill = await billed(key, response.headers.get('x-generation-id'))
        assert.deepEqual(bill.ledger, [])
        assert.equal(bill.keyUsageNano, 0)
        assert.equal(bill.generationCostNano ?? 0n, 0n)
      },
    )
  }
}
