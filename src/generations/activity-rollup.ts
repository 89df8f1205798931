// The daily activity tables behind GET /api/v1/activity (`generation_daily_activity`, migration 0014;
// `generation_daily_totals`, 0015; `generation_daily_workspace_totals`, 0017), kept by the group commit
// that writes the generation records: the statements here go in the same transaction as the records'
// insert, so records are never stored without their sums nor sums without their records. The batch's
// records go as one JSON parameter (what each adds to its rows); each table's sums are grouped from it
// per row and upserted once, instead of one upsert per record and table. On PostgreSQL the three
// upserts are one statement (data-modifying WITH queries: one round trip), on SQLite three. A record
// whose id is stored already (a batch committed again after a failure that hid its commit) is left out
// of the sums, as the records' insert skips it: the statements run before that insert, so "stored
// already" means stored by an earlier transaction. When the store refuses a batch for one record's
// data, the group commit retries it in parts (`commitRows`), each part with its own sums, so the
// refused record counts nowhere and the others once.
import { PostgresAdapter, type Kysely } from 'kysely'
import type { Database } from '../store/database.ts'
import { toStorableParameter } from '../store/storable-text-dialect.ts'
import type { WriteStatement } from '../store/write-behind.ts'
import type { GenerationRecord } from './generation-record.ts'

/** The batch's text columns: the record's id, then the columns of the rows it adds to. */
const textColumns = ['id', 'organization_id', 'day', 'workspace_id', 'key_hash', 'model', 'provider', 'endpoint_id']
/** What a record adds (64-bit integers; the costs are sent as decimal text). */
const summedColumns = ['prompt_tokens', 'completion_tokens', 'reasoning_tokens', 'usage_nano', 'byok_usage_nano']

/** Each roll-up table and the columns of its primary key (what one of its rows sums). */
const rollups = [
  {
    table: 'generation_daily_activity',
    keys: ['organization_id', 'day', 'workspace_id', 'key_hash', 'model', 'provider', 'endpoint_id'],
  },
  { table: 'generation_daily_totals', keys: ['organization_id', 'day', 'model', 'provider', 'endpoint_id'] },
  {
    table: 'generation_daily_workspace_totals',
    keys: ['organization_id', 'day', 'model', 'provider', 'endpoint_id', 'workspace_id'],
  },
] as const

/** What a record adds to its daily rows, by batch column. */
function batchEntry(record: GenerationRecord): Record<string, unknown> {
  const cost = record.costNano.toString()
  const entry: Record<string, unknown> = {
    id: record.id,
    organization_id: record.organizationId,
    day: record.createdAt.slice(0, 10),
    workspace_id: record.workspaceId,
    key_hash: record.keyHash,
    model: record.model,
    provider: record.provider ?? '',
    endpoint_id: record.attempts.at(-1)?.endpointId ?? '',
    prompt_tokens: record.tokensPrompt,
    completion_tokens: record.tokensCompletion,
    reasoning_tokens: record.tokensReasoning,
    usage_nano: record.isByok ? '0' : cost,
    byok_usage_nano: record.isByok ? cost : '0',
  }
  for (const column of textColumns) entry[column] = toStorableParameter(entry[column])
  return entry
}

/** Sums `batch` into `table` per row: one upsert. */
function upsertFrom(table: string, keys: readonly string[], batch: string): string {
  const sumColumns = ['requests', ...summedColumns]
  const sums = ['count(*)', ...summedColumns.map((column) => `sum(${column})`)]
  const additions = sumColumns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ')
  return `insert into ${table} (${keys.join(', ')}, ${sumColumns.join(', ')})
    select ${keys.join(', ')}, ${sums.join(', ')} from ${batch} where true group by ${keys.join(', ')}
    on conflict (${keys.join(', ')}) do update set ${additions}`
}

const notStored = (id: string) => `not exists (select 1 from generations where generations.id = ${id})`

/** SQLite: one statement per table, each reading the batch from `json_each` of its one parameter. */
function sqliteStatements(): string[] {
  const columns = [
    ...textColumns.map((column) => `value ->> '${column}' as ${column}`),
    ...summedColumns.map((column) => `cast(value ->> '${column}' as integer) as ${column}`),
  ]
  const batch = `with batch as (select ${columns.join(', ')} from json_each(?) where ${notStored("value ->> 'id'")})`
  return rollups.map(({ table, keys }) => `${batch}\n${upsertFrom(table, keys, 'batch')}`)
}

/** PostgreSQL: one statement for the three tables (the last upsert is the statement, the others WITH queries). */
function postgresStatement(): string {
  const types = [...textColumns.map((c) => `${c} text`), ...summedColumns.map((c) => `${c} bigint`)]
  const batch = `batch as (select * from jsonb_to_recordset($1::jsonb) as record(${types.join(', ')})
    where ${notStored('record.id')})`
  const upserts = rollups.map(({ table, keys }) => upsertFrom(table, keys, 'batch'))
  const last = upserts.pop()!
  return `with ${[batch, ...upserts.map((upsert, index) => `upsert_${index} as (${upsert})`)].join(',\n')}\n${last}`
}

export class ActivityRollup {
  readonly #texts: readonly string[]

  constructor(db: Kysely<Database>) {
    this.#texts = db.getExecutor().adapter instanceof PostgresAdapter ? [postgresStatement()] : sqliteStatements()
  }

  /**
   * The upserts adding `records` (those not stored yet) to the daily tables; to run in the transaction
   * that inserts them, before their insert.
   */
  statements(records: readonly GenerationRecord[]): WriteStatement[] {
    if (records.length === 0) return []
    const parameters = [JSON.stringify(records.map(batchEntry))]
    return this.#texts.map((sql) => ({ sql, parameters }))
  }
}
