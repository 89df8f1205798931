// Workspace budgets over HTTP (api-reference §4.2), on SQLite and PostgreSQL.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import type { TestGateway } from '../support/test-gateway.ts'
import { cachedWorkspaces, call, engines, errorMessage } from './management-fixtures.ts'
import { holdCacheReads } from '../support/held-cache-reads.ts'

type Budget = {
  id: string
  workspace_id: string
  limit_usd: number
  reset_interval: string | null
  created_at: string
  updated_at: string
}

for (const engine of engines) {
  describe(`workspace budgets on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    let workspaceId: string
    before(async () => {
      gateway = await engine.start()
      const created = await call(gateway, 'POST', '/api/v1/workspaces', { name: 'Budgeted', slug: 'budgeted' })
      workspaceId = (created.json() as { data: { id: string } }).data.id
    })
    after(() => gateway.close())

    const url = (interval: string) => `/api/v1/workspaces/budgeted/budgets/${interval}`

    test('no budgets at first; GET of an unset interval is 404; DELETE is idempotent', async () => {
      assert.deepEqual((await call(gateway, 'GET', '/api/v1/workspaces/budgeted/budgets')).json(), {
        data: [],
        include_byok_in_budgets: false,
      })
      const missing = await call(gateway, 'GET', url('daily'))
      assert.equal(missing.statusCode, 404)
      assert.match(errorMessage(missing), /no daily budget/)
      assert.deepEqual((await call(gateway, 'DELETE', url('daily'))).json(), { deleted: true })
    })

    test('PUT creates then updates a budget; lifetime has a null reset_interval', async () => {
      const created = await call(gateway, 'PUT', url('lifetime'), { limit_usd: 1000 })
      assert.equal(created.statusCode, 200)
      const budget = (created.json() as { data: Budget }).data
      assert.equal(budget.workspace_id, workspaceId)
      assert.equal(budget.limit_usd, 1000)
      assert.equal(budget.reset_interval, null)
      const updated = (await call(gateway, 'PUT', url('lifetime'), { limit_usd: 999.5 })).json() as { data: Budget }
      assert.equal(updated.data.id, budget.id)
      assert.equal(updated.data.limit_usd, 999.5)
      assert.equal(updated.data.created_at, budget.created_at)
      const monthly = (await call(gateway, 'PUT', url('monthly'), { limit_usd: 100 })).json() as { data: Budget }
      assert.equal(monthly.data.reset_interval, 'monthly')
      assert.deepEqual((await call(gateway, 'GET', url('monthly'))).json(), {
        data: monthly.data,
        include_byok_in_budgets: false,
      })
    })

    test('limit_usd must be a number greater than 0; the interval must be known', async () => {
      for (const limit of [0, -1, '5', null])
        assert.equal((await call(gateway, 'PUT', url('weekly'), { limit_usd: limit })).statusCode, 400, String(limit))
      assert.equal((await call(gateway, 'PUT', url('weekly'), {})).statusCode, 400)
      assert.equal((await call(gateway, 'PUT', url('weekly'), { limit_usd: 0.000001 })).statusCode, 200)
      assert.equal((await call(gateway, 'PUT', url('hourly'), { limit_usd: 1 })).statusCode, 400)
      assert.equal((await call(gateway, 'GET', url('yearly'))).statusCode, 400)
      await call(gateway, 'DELETE', url('weekly'))
    })

    test('limits must strictly decrease lifetime > monthly > weekly > daily; the pair is named', async () => {
      const equal = await call(gateway, 'PUT', url('weekly'), { limit_usd: 100 })
      assert.equal(equal.statusCode, 400)
      assert.match(errorMessage(equal), /monthly budget \(100 USD\) must be greater than the weekly budget \(100 USD\)/)
      assert.deepEqual((equal.json() as { error: { metadata: unknown } }).error.metadata, {
        conflicting_intervals: ['monthly', 'weekly'],
      })
      const aboveLifetime = await call(gateway, 'PUT', url('daily'), { limit_usd: 2000 })
      assert.match(errorMessage(aboveLifetime), /lifetime budget .* daily budget/)
      assert.equal((await call(gateway, 'PUT', url('weekly'), { limit_usd: 99.99 })).statusCode, 200)
      assert.equal((await call(gateway, 'PUT', url('daily'), { limit_usd: 10 })).statusCode, 200)
      const raiseDaily = await call(gateway, 'PUT', url('daily'), { limit_usd: 99.99 })
      assert.match(
        errorMessage(raiseDaily),
        /weekly budget \(99.99 USD\) must be greater than the daily budget \(99.99 USD\)/,
      )
      const lowerMonthly = await call(gateway, 'PUT', url('monthly'), { limit_usd: 5 })
      assert.match(errorMessage(lowerMonthly), /monthly budget \(5 USD\) must be greater than the weekly budget/)
      const listed = (await call(gateway, 'GET', '/api/v1/workspaces/budgeted/budgets')).json() as { data: Budget[] }
      assert.deepEqual(
        listed.data.map((budget) => [budget.reset_interval, budget.limit_usd]).sort(),
        [
          ['daily', 10],
          ['monthly', 100],
          ['weekly', 99.99],
          [null, 999.5],
        ].sort(),
      )
    })

    test('include_byok_in_budgets is workspace-wide and reaches the workspace object and the cache', async () => {
      const response = (
        await call(gateway, 'PUT', url('daily'), { limit_usd: 9, include_byok_in_budgets: true })
      ).json() as { include_byok_in_budgets: boolean }
      assert.equal(response.include_byok_in_budgets, true)
      assert.equal(
        ((await call(gateway, 'GET', url('monthly'))).json() as { include_byok_in_budgets: boolean })
          .include_byok_in_budgets,
        true,
      )
      assert.equal(
        (
          (await call(gateway, 'GET', '/api/v1/workspaces/budgeted')).json() as {
            data: { include_byok_in_budgets: boolean }
          }
        ).data.include_byok_in_budgets,
        true,
      )
      await gateway.drained()
      const cached = cachedWorkspaces(gateway).get(workspaceId)
      assert.equal(cached?.includeByokInBudgets, true)
      assert.deepEqual(cached?.budgets.map((budget) => [budget.interval, budget.limitUsd]).sort(), [
        ['daily', '9'],
        ['lifetime', '999.5'],
        ['monthly', '100'],
        ['weekly', '99.99'],
      ])
    })

    test("a budget's PUT answers once the workspace cache, which inference reads, holds the change", async () => {
      const hold = holdCacheReads(gateway.internals.caches.repositories.workspaces, 'listBudgets', 'workspace-cache')
      const cachedLimit = () =>
        cachedWorkspaces(gateway)
          .get(workspaceId)
          ?.budgets.find((budget) => budget.interval === 'weekly')?.limitUsd
      try {
        const lowered = await hold.answeredAfter(call(gateway, 'PUT', url('weekly'), { limit_usd: 50 }))
        assert.equal(lowered.statusCode, 200, lowered.body)
        assert.equal(cachedLimit(), '50')
        const raised = await hold.answeredAfter(call(gateway, 'PUT', url('weekly'), { limit_usd: 99.99 }))
        assert.equal(raised.statusCode, 200, raised.body)
        assert.equal(cachedLimit(), '99.99')
      } finally {
        hold.restore()
      }
    })

    test('DELETE removes one budget', async () => {
      assert.deepEqual((await call(gateway, 'DELETE', url('daily'))).json(), { deleted: true })
      assert.equal((await call(gateway, 'GET', url('daily'))).statusCode, 404)
      await gateway.drained()
      assert.equal(cachedWorkspaces(gateway).get(workspaceId)?.budgets.length, 3)
    })
  })
}
