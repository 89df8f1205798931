// GET /api/v1/activity over a real socket on both stores: daily sums per model and provider endpoint
// (kept by the store as records are written), the default 30 completed days, date and range selection,
// the SDK's filters and group_by, the key's scope, 400s naming bad parameters, and @openrouter/sdk's
// analytics.getUserActivity() parsing the answer.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { OpenRouter } from '@openrouter/sdk'
import { nanoToUsd } from '../../src/domain/money.ts'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { ManualClock } from '../support/manual-clock.ts'
import {
  engines,
  getActivity,
  getJson,
  RecordsFixture,
  type ActivityItem as Item,
  type MintedKey,
} from './records-fixture.ts'

const noon = (day: string) => `${day}T12:00:00.000Z`
const attempt = (endpointId: string, status = 200) => [
  { model: 'acme/fast-1', provider: 'acme', endpointId, status, latencyMs: 10 },
]

for (const engine of engines(postgresTarget())) {
  describe(`GET /api/v1/activity on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    let fixture: RecordsFixture
    let baseUrl: string
    const clock = new ManualClock('2026-11-27T09:30:00.000Z')

    before(async () => {
      gateway = await startTestGateway({ clock, ...(engine.url === undefined ? {} : { postgresUrl: engine.url }) })
      fixture = new RecordsFixture(gateway)
      baseUrl = await gateway.listen()
    })
    after(() => gateway.close())

    const activity = (key: string, query: string): Promise<Item[]> => getActivity(baseUrl, key, query)

    test('sums each day per model and endpoint over the last 30 completed days', async () => {
      const workspace = await fixture.workspace()
      const key = await fixture.key(workspace)
      await fixture.write([
        fixture.record(workspace, key, { createdAt: noon('2026-11-26'), attempts: attempt('acme/fast-1') }),
        fixture.record(workspace, key, {
          createdAt: '2026-11-26T23:59:59.999Z',
          attempts: [...attempt('acme/fast-1b', 502), ...attempt('acme/fast-1')],
          tokensPrompt: 7,
          tokensCompletion: 3,
          tokensReasoning: 0,
          costNano: 250_000n,
        }),
        fixture.record(workspace, key, { createdAt: noon('2026-11-26'), attempts: attempt('acme/fast-1b') }),
        fixture.record(workspace, key, { createdAt: noon('2026-11-26'), isByok: true, costNano: 3_000_000n }),
        fixture.record(workspace, key, {
          createdAt: noon('2026-11-25'),
          status: 'failed',
          provider: null,
          attempts: [],
          costNano: 0n,
        }),
        fixture.record(workspace, key, { createdAt: '2026-10-28T00:00:00.000Z' }),
        fixture.record(workspace, key, { createdAt: '2026-10-27T23:59:59.999Z' }),
        fixture.record(workspace, key, { createdAt: '2026-11-27T00:00:00.000Z' }),
      ])
      const rows = await activity(gateway.adminKey, `workspace_id=${workspace}`)
      const common = { model: 'acme/fast-1', model_permaslug: 'acme/fast-1' }
      assert.deepEqual(rows, [
        {
          date: '2026-11-26',
          ...common,
          endpoint_id: 'acme/fast-1',
          provider_name: 'acme',
          usage: 0.00125,
          byok_usage_inference: 0.003,
          requests: 3,
          prompt_tokens: 27,
          completion_tokens: 43,
          reasoning_tokens: 10,
        },
        {
          date: '2026-11-26',
          ...common,
          endpoint_id: 'acme/fast-1b',
          provider_name: 'acme',
          usage: 0.001,
          byok_usage_inference: 0,
          requests: 1,
          prompt_tokens: 10,
          completion_tokens: 20,
          reasoning_tokens: 5,
        },
        {
          date: '2026-11-25',
          ...common,
          endpoint_id: '',
          provider_name: '',
          usage: 0,
          byok_usage_inference: 0,
          requests: 1,
          prompt_tokens: 10,
          completion_tokens: 20,
          reasoning_tokens: 5,
        },
        {
          date: '2026-10-28',
          ...common,
          endpoint_id: 'acme/fast-1',
          provider_name: 'acme',
          usage: 0.001,
          byok_usage_inference: 0,
          requests: 1,
          prompt_tokens: 10,
          completion_tokens: 20,
          reasoning_tokens: 5,
        },
      ])
      const today = await activity(gateway.adminKey, `workspace_id=${workspace}&date=2026-11-27`)
      assert.deepEqual(
        today.map((row) => [row.date, row.requests]),
        [['2026-11-27', 1]],
      )
      const range = await activity(gateway.adminKey, `workspace_id=${workspace}&from=2026-10-01&to=2026-10-31`)
      assert.deepEqual(
        range.map((row) => [row.date, row.requests]),
        [
          ['2026-10-28', 1],
          ['2026-10-27', 1],
        ],
      )
    })

    async function spread(): Promise<{ one: string; two: string; keys: MintedKey[] }> {
      const [one, two] = [await fixture.workspace(), await fixture.workspace()]
      const keys = [
        await fixture.key(one, 'inference', null, 'user-a'),
        await fixture.key(one),
        await fixture.key(two),
        await fixture.key(one, 'intern', 'intern-7'),
      ]
      await fixture.write(
        keys.map((key, index) =>
          fixture.record(index === 2 ? two : one, key, {
            createdAt: noon('2026-11-20'),
            model: 'spread/m',
            tokensPrompt: 10 ** index,
          }),
        ),
      )
      return { one, two, keys }
    }

    test('filters by key, creating member and workspace, and splits per workspace on group_by', async () => {
      const { one, two, keys } = await spread()
      const prompts = async (key: string, query: string) =>
        (await activity(key, `date=2026-11-20&${query}`))
          .filter((row) => row.model === 'spread/m')
          .map((row) => [row.prompt_tokens, row.workspace_id])
      assert.deepEqual(await prompts(gateway.adminKey, `api_key_hash=${keys[1]!.hash}`), [[10, undefined]])
      assert.deepEqual(await prompts(gateway.adminKey, `user_id=user-a&workspace_id=${one}`), [[1, undefined]])
      assert.deepEqual(await prompts(gateway.adminKey, `workspace_id=${two}`), [[100, undefined]])
      const grouped = (await prompts(gateway.adminKey, 'group_by=workspace')).filter(
        ([, workspace]) => workspace === one || workspace === two,
      )
      assert.deepEqual(
        grouped.sort((a, b) => Number(a[0]) - Number(b[0])),
        [
          [100, two],
          [1011, one],
        ],
      )
    })

    test("the organization's answer (the daily totals) equals its workspaces' rows summed", async () => {
      const { keys } = await spread()
      const [one] = [await fixture.workspace()]
      const extra = await fixture.key(one)
      await fixture.write([
        fixture.record(one, extra, { createdAt: noon('2026-11-21'), model: 'spread/m', tokensPrompt: 5 }),
        fixture.record(one, keys[1]!, { createdAt: noon('2026-11-20'), model: 'spread/m', tokensPrompt: 20_000 }),
      ])
      const range = 'from=2026-11-19&to=2026-11-22'
      const summed = new Map<string, number[]>()
      for (const row of await activity(gateway.adminKey, `${range}&group_by=workspace`)) {
        const id = `${row.date}|${row.model}|${row.endpoint_id}`
        const [requests = 0, prompt = 0, usage = 0] = summed.get(id) ?? []
        summed.set(id, [requests + row.requests, prompt + row.prompt_tokens, usage + Math.round(row.usage * 1e9)])
      }
      const organization = await activity(gateway.adminKey, range)
      assert.deepEqual(
        new Map(
          organization.map((row) => [
            `${row.date}|${row.model}|${row.endpoint_id}`,
            [row.requests, row.prompt_tokens, Math.round(row.usage * 1e9)],
          ]),
        ),
        summed,
      )
      const spreadDay = organization.find((row) => row.model === 'spread/m' && row.date === '2026-11-20')
      assert.ok(spreadDay !== undefined && spreadDay.prompt_tokens >= 21_111)
    })

    test('a management key reads the organization, other keys their workspace, intern keys their intern', async () => {
      const { one, two, keys } = await spread()
      const total = async (key: string, query = '') =>
        (await activity(key, `date=2026-11-20&${query}`))
          .filter((row) => row.model === 'spread/m')
          .reduce((sum, row) => sum + row.prompt_tokens, 0)
      assert.equal(await total(keys[0]!.plaintext), 1011)
      assert.equal(await total(keys[2]!.plaintext), 100)
      assert.equal(await total(keys[3]!.plaintext), 1000)
      assert.equal(
        (await total(gateway.adminKey, `workspace_id=${one}`)) + (await total(gateway.adminKey, `workspace_id=${two}`)),
        1111,
      )
      const foreign = await getJson(baseUrl, keys[0]!.plaintext, `/api/v1/activity?workspace_id=${two}`)
      assert.equal(foreign.status, 404)
    })

    test('bad parameters are a 400 in the error envelope naming the parameter', async () => {
      const cases: [string, RegExp][] = [
        ['date=2026-02-30', /date must be a calendar date/],
        ['date=yesterday', /date must be a calendar date/],
        ['date=2026-11-20&from=2026-11-01', /either date or from\/to/],
        ['from=2026-11-20&to=2026-11-01', /from \(2026-11-20\) must not be after to/],
        ['from=2024-01-01&to=2026-01-01', /more than 366 days/],
        ['group_by=model', /group_by/],
        ['api_key_hash=xyz', /api_key_hash/],
      ]
      for (const [query, message] of cases) {
        const { status, body } = await getJson(baseUrl, gateway.adminKey, `/api/v1/activity?${query}`)
        assert.equal(status, 400, query)
        assert.equal(body.error?.code, 400, query)
        assert.match(body.error!.message, message, query)
      }
    })

    test('the body is the text JSON.stringify writes of the items, strings escaped and USD exact', async () => {
      const workspace = await fixture.workspace()
      const key = await fixture.key(workspace)
      const model = 'q"\\\u0001\n\té€😀/x'
      const endpoint = 'acme/\u001f"end'
      await fixture.write([
        fixture.record(workspace, key, { createdAt: noon('2026-11-23'), model: 'plain/m', costNano: 100n }),
        fixture.record(workspace, key, {
          createdAt: noon('2026-11-23'),
          model,
          attempts: attempt(endpoint),
          costNano: 1_234_567_890_123_456_789n,
        }),
        fixture.record(workspace, key, {
          createdAt: noon('2026-11-23'),
          model,
          attempts: attempt(endpoint),
          costNano: 0n,
        }),
        fixture.record(workspace, key, {
          createdAt: noon('2026-11-23'),
          model,
          attempts: attempt(endpoint),
          isByok: true,
          costNano: 150n,
        }),
      ])
      const item = (name: string, endpointId: string, usage: bigint, byok: bigint, requests: number) => ({
        date: '2026-11-23',
        model: name,
        model_permaslug: name,
        endpoint_id: endpointId,
        provider_name: 'acme',
        usage: nanoToUsd(usage),
        byok_usage_inference: nanoToUsd(byok),
        requests,
        prompt_tokens: 10 * requests,
        completion_tokens: 20 * requests,
        reasoning_tokens: 5 * requests,
      })
      const items = [
        item('plain/m', 'acme/fast-1', 100n, 0n, 1),
        item(model, endpoint, 1_234_567_890_123_456_789n, 150n, 3),
      ]
      const bodyOf = async (query: string) => {
        const response = await fetch(`${baseUrl}/api/v1/activity?date=2026-11-23&${query}`, {
          headers: { authorization: `Bearer ${gateway.adminKey}` },
        })
        assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8')
        return response.text()
      }
      assert.equal(await bodyOf(`workspace_id=${workspace}`), JSON.stringify({ data: items }))
      assert.equal(await bodyOf(`api_key_hash=${key.hash}`), JSON.stringify({ data: items }))
      const grouped = items.map((row) => ({ ...row, workspace_id: workspace }))
      assert.equal(await bodyOf(`workspace_id=${workspace}&group_by=workspace`), JSON.stringify({ data: grouped }))
      assert.equal(await bodyOf(`api_key_hash=${key.hash}&group_by=workspace`), JSON.stringify({ data: grouped }))
      assert.equal(await bodyOf(`workspace_id=${workspace}&user_id=nobody`), '{"data":[]}')
    })

    test('@openrouter/sdk analytics.getUserActivity() reads it', async () => {
      const workspace = await fixture.workspace()
      const key = await fixture.key(workspace)
      await fixture.write([fixture.record(workspace, key, { createdAt: noon('2026-11-24'), model: 'sdk/m' })])
      const client = new OpenRouter({ apiKey: key.plaintext, serverURL: `${baseUrl}/api/v1` })
      const result = await client.analytics.getUserActivity({ date: '2026-11-24', apiKeyHash: key.hash })
      assert.deepEqual(result.data, [
        {
          date: '2026-11-24',
          model: 'sdk/m',
          modelPermaslug: 'sdk/m',
          endpointId: 'acme/fast-1',
          providerName: 'acme',
          usage: 0.001,
          byokUsageInference: 0,
          requests: 1,
          promptTokens: 10,
          completionTokens: 20,
          reasoningTokens: 5,
        },
      ])
      const grouped = await client.analytics.getUserActivity({
        date: '2026-11-24',
        groupBy: 'workspace',
        workspaceId: workspace,
      })
      assert.equal(grouped.data[0]?.workspaceId, workspace)
    })
  })
}
