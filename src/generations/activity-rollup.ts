// The daily activity tables behind GET /api/v1/activity (`generation_daily_activity`, migration 0014;
// `generation_daily_totals`, 0015; `generation_daily_workspace_totals`, 0017), kept by the group commit
// that writes the generation records: the statements here go in the same transaction as the records'
// insert, so records are never stored without their sums nor sums without their records. Each table's
// sums are grouped per row and upserted once per batch, not once per record and table. A record whose
// id is stored already (a batch committed again after a failure that hid its commit) counts once, as
// the records' insert skips it; when the store refuses a batch for one record's data, the group commit
// retries it in parts (`commitRows`), each part with its own sums, so the refused record counts nowhere
// and the others once.
//
// On SQLite the sums are read back from the rows the transaction inserted: before the insert, the
// generations table's highest rowid is marked in a table of the connection's temporary schema, and after
// it, each upsert groups the rows past the mark (rows inserted later get higher rowids, and the
// transaction is the only writer). No record is sent twice and no JSON is parsed but each record's
// attempts (for the endpoint). On PostgreSQL, where a round trip costs more than the parse, the batch's
// records go as one JSON parameter before the insert, left out when stored already, and the three
// upserts are one statement (data-modifying WITH queries).
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

/** What a record adds to its daily rows, by batch column (PostgreSQL). */
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

/** SQLite, before the insert: the generations table's highest rowid, in the connection's temporary schema. */
const sqliteMark = [
  `create temp table if not exists generation_rollup_mark
    (one integer primary key check (one = 1), rowid_before integer not null)`,
  `insert or replace into temp.generation_rollup_mark (one, rowid_before)
    select 1, coalesce(max(rowid), 0) from main.generations`,
]

/** SQLite, after the insert: one upsert per table, summing the rows past the mark. */
function sqliteSums(): string[] {
  const cost = 'cast(cost_nano as integer)'
  const batch = `with batch as (select organization_id, substr(created_at, 1, 10) as day, workspace_id, key_hash,
      model, coalesce(provider, '') as provider, coalesce(attempts ->> '$[#-1].endpointId', '') as endpoint_id,
      tokens_prompt as prompt_tokens, tokens_completion as completion_tokens, tokens_reasoning as reasoning_tokens,
      case when is_byok = 1 then 0 else ${cost} end as usage_nano,
      case when is_byok = 1 then ${cost} else 0 end as byok_usage_nano
    from main.generations where rowid > (select rowid_before from temp.generation_rollup_mark))`
  return rollups.map(({ table, keys }) => `${batch}\n${upsertFrom(table, keys, 'batch')}`)
}

/** PostgreSQL: one statement for the three tables (the last upsert is the statement, the others WITH queries). */
function postgresStatement(): string {
  const types = [...textColumns.map((c) => `${c} text`), ...summedColumns.map((c) => `${c} bigint`)]
  const notStored = 'not exists (select 1 from generations where generations.id = record.id)'
  const batch = `batch as (select * from jsonb_to_recordset($1::jsonb) as record(${types.join(', ')})
    where ${notStored})`
  const upserts = rollups.map(({ table, keys }) => upsertFrom(table, keys, 'batch'))
  const last = upserts.pop()!
  return `with ${[batch, ...upserts.map((upsert, index) => `upsert_${index} as (${upsert})`)].join(',\n')}\n${last}`
}

const withoutParameters = (sql: string): WriteStatement => ({ sql, parameters: [] })

export class ActivityRollup {
  /** PostgreSQL's one statement; null on SQLite. */
  readonly #postgres: string | null
  readonly #before: readonly WriteStatement[]
  readonly #after: readonly WriteStatement[]

  constructor(db: Kysely<Database>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter
    this.#postgres = isPostgres ? postgresStatement() : null
    this.#before = isPostgres ? [] : sqliteMark.map(withoutParameters)
    this.#after = isPostgres ? [] : sqliteSums().map(withoutParameters)
  }

  /**
   * What adds `records` (those not stored yet) to the daily tables, in the transaction that inserts
   * them: `before` runs before their insert, `after` after it.
   */
  statements(records: readonly GenerationRecord[]): { before: WriteStatement[]; after: WriteStatement[] } {
    if (records.length === 0) return { before: [], after: [] }
    if (this.#postgres === null) return { before: [...this.#before], after: [...this.#after] }
    const parameters = [JSON.stringify(records.map(batchEntry))]
    return { before: [{ sql: this.#postgres, parameters }], after: [] }
  }
}
