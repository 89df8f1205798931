// The repository contract, run on every engine: SQLite always, PostgreSQL when TEST_DATABASE_URL is set
// (and always under CI). Migrations start from an empty store each time.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { migrations } from '../../src/store/migrations/index.ts'
import { bootstrapIdentity } from '../../src/identity/bootstrap-identity.ts'
import { createApiKeysRepository } from '../../src/store/repositories/api-keys-repository.ts'
import { createOrganizationsRepository } from '../../src/store/repositories/organizations-repository.ts'
import {
  createObservabilityDestinationsRepository,
  deliveredCountsPlan,
} from '../../src/store/repositories/observability-destinations-repository.ts'
import { DeliveredCounts } from '../../src/observability/delivered-counts.ts'
import { GroupCommit } from '../../src/store/group-commit.ts'
import type { DestinationRow } from '../../src/store/tables/observability-tables.ts'
import { systemClock } from '../../src/domain/clock.ts'
import { storeEngines, type TestDatabase } from '../support/test-store.ts'

for (const engine of storeEngines()) {
  describe(`store contract on ${engine.name}`, { skip: engine.skip }, () => {
    let database: TestDatabase
    let store: Store

    before(async () => {
      database = engine.create()
      store = openStore(database.url)
    })
    after(async () => {
      await store.close()
      await database.dispose()
    })

    test('migrations run from empty, then report nothing to do', async () => {
      const first = await migrateToLatest(store)
      assert.deepEqual(first.applied, Object.keys(migrations).sort())
      const second = await migrateToLatest(store)
      assert.deepEqual(second.applied, [])
      await store.ping()
    })

    test('bootstrap creates organization, owner, default workspace and one key, once', async () => {
      const first = await bootstrapIdentity(store, systemClock, null)
      assert.match(first.createdManagementKey ?? '', /^sk-sy-v1-[0-9a-f]{64}$/)
      const second = await bootstrapIdentity(store, systemClock, null)
      assert.equal(second.createdManagementKey, null)
      assert.equal(second.organizationId, first.organizationId)
      assert.equal(second.defaultWorkspaceId, first.defaultWorkspaceId)
      const keys = await createApiKeysRepository(store.db).list()
      assert.equal(keys.length, 1)
      assert.equal(keys[0]?.kind, 'management')
    })

    test('an admin key from the environment is created once', async () => {
      const admin = 'sk-admin-from-env-0123456789abcdef0123456789'
      assert.equal((await bootstrapIdentity(store, systemClock, admin)).adminKeyCreated, true)
      assert.equal((await bootstrapIdentity(store, systemClock, admin)).adminKeyCreated, false)
    })

    test('api keys: insert, find, list newest first, filter, update, delete', async () => {
      const repository = createApiKeysRepository(store.db)
      const identity = await bootstrapIdentity(store, systemClock, null)
      const base = {
        kind: 'inference' as const,
        label: 'l',
        organizationId: identity.organizationId,
        workspaceId: identity.defaultWorkspaceId,
      }
      await repository.insert({
        ...base,
        hash: 'h-old',
        name: 'old',
        createdAt: '2026-01-01T00:00:00.000Z',
        limitUsd: '12.5',
        limitReset: 'monthly',
        includeByokInLimit: true,
      })
      await repository.insert({
        ...base,
        hash: 'h-new',
        name: 'new',
        createdAt: '2026-02-01T00:00:00.000Z',
        externalUser: 'user-1',
      })
      const found = await repository.findByHash('h-old')
      assert.equal(found?.limitUsd, '12.5')
      assert.equal(found?.limitReset, 'monthly')
      assert.equal(found?.includeByokInLimit, true)
      assert.equal(found?.disabled, false)
      const listed = await repository.list({ workspaceId: identity.defaultWorkspaceId, kinds: ['inference'] })
      assert.deepEqual(
        listed.map((key) => key.hash),
        ['h-new', 'h-old'],
      )
      const updated = await repository.update(
        'h-new',
        { disabled: true, name: 'renamed', limitUsd: null },
        '2026-03-01T00:00:00.000Z',
      )
      assert.equal(updated?.disabled, true)
      assert.equal(updated?.name, 'renamed')
      assert.equal(updated?.updatedAt, '2026-03-01T00:00:00.000Z')
      assert.deepEqual(
        (await repository.list({ kinds: ['inference'] })).map((key) => key.hash),
        ['h-old'],
      )
      assert.deepEqual(
        (await repository.list({ kinds: ['inference'], includeDisabled: true })).map((key) => key.hash),
        ['h-new', 'h-old'],
      )
      await repository.touchLastUsed(new Map([['h-old', '2026-03-02T00:00:00.000Z']]))
      assert.equal((await repository.findByHash('h-old'))?.lastUsedAt, '2026-03-02T00:00:00.000Z')
      assert.equal(await repository.delete('h-new'), true)
      assert.equal(await repository.delete('h-new'), false)
      assert.equal(await repository.findByHash('h-new'), undefined)
    })

    test('a key must name an existing workspace (foreign keys are on)', async () => {
      const identity = await bootstrapIdentity(store, systemClock, null)
      await assert.rejects(
        createApiKeysRepository(store.db).insert({
          hash: 'h-orphan',
          kind: 'inference',
          name: 'x',
          label: 'x',
          organizationId: identity.organizationId,
          workspaceId: randomUUID(),
          createdAt: new Date().toISOString(),
        }),
      )
    })

    test('users: unique email, paging with a total; workspaces by id or slug', async () => {
      const organizations = createOrganizationsRepository(store.db)
      const identity = await bootstrapIdentity(store, systemClock, null)
      const user = {
        organization_id: identity.organizationId,
        name: null,
        role: 'member',
        created_at: new Date().toISOString(),
      }
      await organizations.insertUser({ ...user, id: randomUUID(), email: 'a@example.com' })
      await assert.rejects(organizations.insertUser({ ...user, id: randomUUID(), email: 'a@example.com' }))
      const page = await organizations.listUsers(identity.organizationId, 1, 1)
      assert.equal(page.total, 2)
      assert.equal(page.rows.length, 1)
      assert.equal((await organizations.findWorkspace('default'))?.id, identity.defaultWorkspaceId)
      assert.equal((await organizations.findWorkspace(identity.defaultWorkspaceId))?.slug, 'default')
      assert.equal(await organizations.findWorkspace('missing'), undefined)
    })

    test('a failed transaction writes nothing', async () => {
      const organizations = createOrganizationsRepository(store.db)
      const identity = await bootstrapIdentity(store, systemClock, null)
      const email = `tx-${randomUUID()}@example.com`
      await assert.rejects(
        store.db.transaction().execute(async (transaction) => {
          await organizations.insertUser(
            {
              id: randomUUID(),
              organization_id: identity.organizationId,
              email,
              name: null,
              role: 'member',
              created_at: new Date().toISOString(),
            },
            transaction,
          )
          throw new Error('abort')
        }),
      )
      assert.equal(await organizations.findUserByEmail(email), undefined)
    })

    test('delivered counts add up through the group commit, summed into one update per destination', async () => {
      const identity = await bootstrapIdentity(store, systemClock, null)
      const destinations = createObservabilityDestinationsRepository(store.db)
      const at = new Date().toISOString()
      const destination = (id: string): DestinationRow => ({
        id,
        workspace_id: identity.defaultWorkspaceId,
        name: id,
        type: 'webhook',
        config: '{}',
        enabled: 1,
        api_key_hashes: null,
        broadcast_generation_cost: 1,
        broadcast_generation_cost_allocation: 1,
        broadcast_generation_identity: 1,
        broadcast_generation_request_context: 1,
        filter_rules: null,
        privacy_mode: 0,
        regions: '["global"]',
        sampling_rate: 1,
        last_error: null,
        created_at: at,
        updated_at: at,
        deleted_at: null,
      })
      const [first, second] = [`dest-${randomUUID()}`, `dest-${randomUUID()}`]
      await destinations.insert(destination(first))
      await destinations.insert(destination(second))
      const commits = new GroupCommit(store.writes, { onError: (error) => assert.fail(String(error)) })
      const plan = deliveredCountsPlan(store.db)
      const added = [
        { destinationId: first, count: 3 },
        { destinationId: second, count: 2 },
        { destinationId: first, count: 4 },
      ]
      assert.equal(plan.statementsOf(added).length, 2)
      const counts = new DeliveredCounts(commits.queue(plan))
      for (const { destinationId, count } of added) counts.add(destinationId, count)
      await commits.close()
      const rows = await store.db
        .selectFrom('observability_destinations')
        .select(['id', 'delivered_count'])
        .where('id', 'in', [first, second])
        .execute()
      const stored = new Map(rows.map((row) => [row.id, Number(row.delivered_count)]))
      assert.deepEqual([stored.get(first), stored.get(second)], [7, 2])
    })
  })
}
