// The daily activity tables behind GET /api/v1/activity (`generation_daily_activity`, migration 0014;
// `generation_daily_totals`, 0015; `generation_daily_workspace_totals`, 0017), kept by the group commit
// that writes the generation records: the statements here go in the same transaction as the records'
// insert, so records are never stored without their sums nor sums without their records. Each
// statement sums the batch's records per row of its table (GROUP BY over the batch given as VALUES) and
// upserts each sum once, instead of one upsert per record and table. A record whose id is stored
// already (a batch committed again after a failure that hid its commit) is left out of the sums, as the
// records' insert skips it: the statements run before that insert, so "stored already" means stored
// by an earlier transaction. When the store refuses a batch for one record's data, the group commit
// retries it in parts (`commitRows`), each part with its own sums, so the refused record counts nowhere
// and the others once.
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Database } from '../store/database.ts'
import { toStorableParameter } from '../store/storable-text-dialect.ts'
import type { WriteStatement } from '../store/write-behind.ts'
import type { GenerationRecord } from './generation-record.ts'

/** The batch's columns: the record's id, then what it adds to its daily rows. */
const batchColumns = [
  'id',
  'organization_id',
  'day',
  'workspace_id',
  'key_hash',
  'model',
  'provider',
  'endpoint_id',
  'prompt_tokens',
  'completion_tokens',
  'reasoning_tokens',
  'usage_nano',
  'byok_usage_nano',
] as const
/** Bound as 64-bit integers (the rest as text). */
const integerColumns = new Set([
  'prompt_tokens',
  'completion_tokens',
  'reasoning_tokens',
  'usage_nano',
  'byok_usage_nano',
])
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

/** What a record adds to its daily rows, in `batchColumns` order. */
function batchValues(record: GenerationRecord): unknown[] {
  const cost = record.costNano.toString()
  return [
    record.id,
    record.organizationId,
    record.createdAt.slice(0, 10),
    record.workspaceId,
    record.keyHash,
    record.model,
    record.provider ?? '',
    record.attempts.at(-1)?.endpointId ?? '',
    record.tokensPrompt,
    record.tokensCompletion,
    record.tokensReasoning,
    record.isByok ? '0' : cost,
    record.isByok ? cost : '0',
  ].map(toStorableParameter)
}

export class ActivityRollup {
  readonly #db: Kysely<Database>
  /** Compiled SQL per table and batch size (the dialect's own placeholders). */
  readonly #texts = new Map<string, string>()

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /**
   * One upsert per roll-up table adding `records` (those not stored yet); to run in the transaction that
   * inserts them, before their insert.
   */
  statements(records: readonly GenerationRecord[]): WriteStatement[] {
    if (records.length === 0) return []
    const parameters = records.flatMap(batchValues)
    return rollups.map((rollup) => ({ sql: this.#text(rollup, records.length), parameters }))
  }

  #text(rollup: (typeof rollups)[number], size: number): string {
    const cacheKey = `${rollup.table}:${size}`
    let text = this.#texts.get(cacheKey)
    if (text === undefined) {
      const compiled = upsertSums(rollup.table, rollup.keys, size).compile(this.#db)
      if (compiled.parameters.length !== size * batchColumns.length)
        throw new Error(`activity roll-up of ${rollup.table}: ${compiled.parameters.length} parameters compiled`)
      text = compiled.sql
      this.#texts.set(cacheKey, text)
    }
    return text
  }
}

/** The upsert of `size` records' sums into `table`; its parameters are placeholders (compiled once). */
function upsertSums(table: string, keys: readonly string[], size: number): RawBuilder<unknown> {
  const row = sql`(${sql.join(
    batchColumns.map((column) => (integerColumns.has(column) ? sql`cast(${0} as bigint)` : sql`${''}`)),
  )})`
  const keyList = sql.raw(keys.join(', '))
  const sums = ['count(*)', ...summedColumns.map((column) => `sum(${column})`)]
  const sumColumns = ['requests', ...summedColumns]
  const additions = sumColumns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ')
  return sql`with batch (${sql.raw(batchColumns.join(', '))}) as (values ${sql.join(Array.from({ length: size }, () => row))})
    insert into ${sql.table(table)} (${keyList}, ${sql.raw(sumColumns.join(', '))})
    select ${keyList}, ${sql.raw(sums.join(', '))} from batch
    where not exists (select 1 from generations where generations.id = batch.id)
    group by ${keyList}
    on conflict (${keyList}) do update set ${sql.raw(additions)}`
}
