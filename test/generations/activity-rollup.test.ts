// The daily activity tables kept by the group commit (src/generations/activity-rollup.ts), on both
// stores: a varied set of records (several days, workspaces, keys, models, fallbacks, errors, BYOK,
// cancelled, no endpoint) written through the gateway's generation store in several batches, some
// again (ids stored already), gives GET /api/v1/activity answers (the organization's, group_by=workspace,
// each workspace's, each key's) equal to sums computed from the stored generation rows; and a record
// the store refuses counts nowhere while the others of its batch count once.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { fromGenerationRow } from '../../src/generations/generation-row.ts'
import type { GenerationRecord } from '../../src/generations/generation-record.ts'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { ManualClock } from '../support/manual-clock.ts'
import { engines, getActivity, RecordsFixture, type ActivityItem as Item, type MintedKey } from './records-fixture.ts'

const days = ['2026-11-18', '2026-11-19', '2026-11-21', '2026-11-26']
const models = ['acme/fast-1', 'acme/big-2', 'other/m']

/** Record `index` of the varied set, of `key` in `workspace`. */
function varied(fixture: RecordsFixture, workspace: string, key: MintedKey, index: number): GenerationRecord {
  const model = models[(index * 7) % 3]!
  const served = { model, provider: 'acme', endpointId: `acme/${model}`, status: 200, latencyMs: 5 }
  const failed = { ...served, endpointId: `acme/${model}-b`, status: 502 }
  const attempts = index % 9 === 0 ? [] : index % 4 === 1 ? [failed, served] : index % 6 === 0 ? [failed] : [served]
  return fixture.record(workspace, key, {
    model,
    provider: attempts.length === 0 ? null : 'acme',
    attempts,
    status: index % 6 === 0 ? 'failed' : 'completed',
    errorStatus: index % 6 === 0 ? 502 : null,
    cancelled: index % 7 === 0,
    isByok: index % 5 === 0,
    tokensPrompt: index * 3 + 1,
    tokensCompletion: index % 11,
    tokensReasoning: index % 4,
    costNano: BigInt(1_000 * (index + 1)),
    createdAt: `${days[index % days.length]}T${String(index % 24).padStart(2, '0')}:30:00.000Z`,
  })
}

/** An answer's rows as sortable tuples (usage in nano-USD), in a stable order. */
function tuples(items: readonly Item[]): string[] {
  return items
    .map((item) =>
      JSON.stringify([
        item.date,
        item.model,
        item.provider_name,
        item.endpoint_id,
        item.workspace_id ?? null,
        item.requests,
        item.prompt_tokens,
        item.completion_tokens,
        item.reasoning_tokens,
        Math.round(item.usage * 1e9),
        Math.round(item.byok_usage_inference * 1e9),
      ]),
    )
    .sort()
}

/** The same tuples summed from generation records, per day, model, provider and endpoint (and workspace). */
function summed(records: readonly GenerationRecord[], byWorkspace: boolean): string[] {
  const sums = new Map<string, { key: unknown[]; values: number[] }>()
  for (const record of records) {
    const key = [
      record.createdAt.slice(0, 10),
      record.model,
      record.provider ?? '',
      record.attempts.at(-1)?.endpointId ?? '',
      byWorkspace ? record.workspaceId : null,
    ]
    const id = JSON.stringify(key)
    const entry = sums.get(id) ?? { key, values: [0, 0, 0, 0, 0, 0] }
    const cost = Number(record.costNano)
    const added = [1, record.tokensPrompt, record.tokensCompletion, record.tokensReasoning]
    added.push(record.isByok ? 0 : cost, record.isByok ? cost : 0)
    entry.values = entry.values.map((value, index) => value + added[index]!)
    sums.set(id, entry)
  }
  return [...sums.values()].map(({ key, values }) => JSON.stringify([...key, ...values])).sort()
}

for (const engine of engines(postgresTarget())) {
  describe(`activity kept by the group commit on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    let fixture: RecordsFixture
    let baseUrl: string

    before(async () => {
      const clock = new ManualClock('2026-11-27T09:30:00.000Z')
      gateway = await startTestGateway({ clock, ...(engine.url === undefined ? {} : { postgresUrl: engine.url }) })
      fixture = new RecordsFixture(gateway)
      baseUrl = await gateway.listen()
    })
    after(() => gateway.close())

    const activity = (key: string, query: string): Promise<Item[]> => getActivity(baseUrl, key, query)

    /** The stored generation records of these days, read from the table. */
    async function storedRecords(fromDay: string, toDay: string): Promise<GenerationRecord[]> {
      const rows = await gateway.store.db
        .selectFrom('generations')
        .selectAll()
        .where('created_at', '>=', fromDay)
        .where('created_at', '<', `${toDay}T24`)
        .execute()
      return rows.map(fromGenerationRow)
    }

    test('every answer equals the sums of the stored generation rows', async () => {
      const workspaces = [await fixture.workspace(), await fixture.workspace(), await fixture.workspace()]
      const keys = await Promise.all(
        workspaces.flatMap((workspace) => [fixture.key(workspace), fixture.key(workspace)]),
      )
      const records = Array.from({ length: 90 }, (_, index) =>
        varied(fixture, workspaces[index % 3]!, keys[(index % 3) * 2 + ((index >> 1) % 2)]!, index),
      )
      await fixture.write(records.slice(0, 50))
      // Records stored already, again (with new ones in the same batches): stored and counted once.
      await fixture.write([...records.slice(40, 70), ...records.slice(0, 10)])
      await fixture.write(records.slice(60))
      const stored = await storedRecords('2026-11-15', '2026-11-26')
      assert.equal(stored.length, 90)
      const range = 'from=2026-11-15&to=2026-11-26'
      assert.deepEqual(tuples(await activity(gateway.adminKey, range)), summed(stored, false))
      assert.deepEqual(tuples(await activity(gateway.adminKey, `${range}&group_by=workspace`)), summed(stored, true))
      for (const workspace of workspaces) {
        const own = stored.filter((record) => record.workspaceId === workspace)
        assert.deepEqual(
          tuples(await activity(gateway.adminKey, `${range}&workspace_id=${workspace}`)),
          summed(own, false),
        )
      }
      for (const key of keys) {
        const own = stored.filter((record) => record.keyHash === key.hash)
        assert.ok(own.length > 0)
        assert.deepEqual(
          tuples(await activity(gateway.adminKey, `${range}&api_key_hash=${key.hash}`)),
          summed(own, false),
        )
      }
      // An inference key sees its own workspace.
      const own = stored.filter((record) => record.workspaceId === workspaces[1])
      assert.deepEqual(tuples(await activity(keys[2]!.plaintext, range)), summed(own, false))
    })

    test('a record the store refuses counts nowhere; the others of its batch count once', async () => {
      const workspace = await fixture.workspace()
      const key = await fixture.key(workspace)
      const db = gateway.store.db
      if (engine.url === undefined)
        await sql`create trigger refuse_record before insert on generations when new.model = 'refused/m'
          begin select raise(abort, 'refused by the test'); end`.execute(db)
      else
        await sql`alter table generations add constraint refuse_record check (model <> 'refused/m') not valid`.execute(
          db,
        )
      const rejected = () => gateway.store.writes.rejectedRows.counts().get('generations') ?? 0
      const rejectedBefore = rejected()
      const day = (index: number) => ({ createdAt: `2026-11-10T${String(index).padStart(2, '0')}:00:00.000Z` })
      const records = Array.from({ length: 20 }, (_, index) =>
        fixture.record(workspace, key, {
          ...day(index),
          model: index === 13 ? 'refused/m' : 'kept/m',
          tokensPrompt: index,
        }),
      )
      try {
        await fixture.write(records)
      } finally {
        if (engine.url === undefined) await sql`drop trigger refuse_record`.execute(db)
        else await sql`alter table generations drop constraint refuse_record`.execute(db)
      }
      assert.equal(rejected(), rejectedBefore + 1)
      const stored = await storedRecords('2026-11-10', '2026-11-10')
      assert.deepEqual(
        stored.map((record) => record.id).sort(),
        records
          .filter((_, index) => index !== 13)
          .map((record) => record.id)
          .sort(),
      )
      const answer = await activity(gateway.adminKey, `date=2026-11-10&workspace_id=${workspace}`)
      assert.deepEqual(tuples(answer), summed(stored, false))
      assert.deepEqual(
        answer.map((item) => [item.model, item.requests, item.prompt_tokens]),
        [['kept/m', 19, 190 - 13]],
      )
    })
  })
}
