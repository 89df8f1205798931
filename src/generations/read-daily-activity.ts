// GET /api/v1/activity's items as JSON text, built by the database: the daily activity tables summed over
// a range of UTC days, per day, model, provider and endpoint (and workspace when asked), within a key's
// scope, each row written as its ActivityItem object and the objects joined in the answer's order by one
// ordered string_agg (SQLite 3.44+ and PostgreSQL), so the process reads one string instead of a row of
// eleven cells per item. Strings are quoted by the database's JSON quoting (SQLite json_quote,
// PostgreSQL to_json), which escapes as JSON.stringify does; USD amounts: activity-json.ts.
// Answers that need no key's rows read tables already summed: the organization-wide answer, with no
// filter, the daily totals (migration 0015: one row per day and endpoint), and one per workspace or of
// one workspace the daily workspace totals (migration 0017: one row per day, endpoint and workspace);
// the others sum the per-key table (migration 0014).
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely'
import type { Database } from '../store/database.ts'
import { usdAmounts } from './activity-json.ts'

export interface ActivityFilter {
  readonly organizationId: string
  readonly workspaceId?: string | undefined
  /** Only activity of keys of this intern. */
  readonly internId?: string | undefined
  readonly keyHash?: string | undefined
  /** Only activity of keys this organization member created. */
  readonly creatorUserId?: string | undefined
  /** First and last day (YYYY-MM-DD, UTC), inclusive. */
  readonly fromDay: string
  readonly toDay: string
  /** One row per workspace instead of across workspaces. */
  readonly byWorkspace: boolean
}

type ActivityTable = 'generation_daily_activity' | 'generation_daily_totals' | 'generation_daily_workspace_totals'

const counters = ['requests', 'prompt_tokens', 'completion_tokens', 'reasoning_tokens', 'usage_nano', 'byok_usage_nano']

/** The table to read: a table already summed when no filter narrows the answer below whole workspaces. */
function tableOf(filter: ActivityFilter): ActivityTable {
  const perKey = filter.keyHash !== undefined || filter.internId !== undefined || filter.creatorUserId !== undefined
  if (perKey) return 'generation_daily_activity'
  return filter.workspaceId === undefined && !filter.byWorkspace
    ? 'generation_daily_totals'
    : 'generation_daily_workspace_totals'
}

function conditions(filter: ActivityFilter): RawBuilder<unknown>[] {
  const where = [
    sql`organization_id = ${filter.organizationId}`,
    sql`day >= ${filter.fromDay}`,
    sql`day <= ${filter.toDay}`,
  ]
  if (filter.workspaceId !== undefined) where.push(sql`workspace_id = ${filter.workspaceId}`)
  if (filter.keyHash !== undefined) where.push(sql`key_hash = ${filter.keyHash}`)
  if (filter.internId !== undefined)
    where.push(sql`key_hash in (select hash from api_keys where intern_id = ${filter.internId})`)
  if (filter.creatorUserId !== undefined)
    where.push(sql`key_hash in (select hash from api_keys where creator_user_id = ${filter.creatorUserId})`)
  return where
}

/** The rows to write, one per item: the table's rows in range, summed over keys when it is the per-key table. */
function rowsOf(table: ActivityTable, filter: ActivityFilter): RawBuilder<unknown> {
  const keys = ['day', 'model', 'provider', 'endpoint_id', ...(filter.byWorkspace ? ['workspace_id'] : [])]
  const where = sql.join(conditions(filter), sql` and `)
  if (table !== 'generation_daily_activity')
    return sql`select ${sql.raw([...keys, ...counters].join(', '))} from ${sql.table(table)} where ${where}`
  const sums = counters.map((column) => `sum(${column}) as ${column}`)
  return sql`select ${sql.raw([...keys, ...sums].join(', '))} from ${sql.table(table)} where ${where}
    group by ${sql.raw(keys.join(', '))}`
}

/** One row's ActivityItem object as JSON text, fields in OpenRouter's order (USD amounts in nano-dollars). */
function itemText(quote: (column: string) => string, byWorkspace: boolean): string {
  const parts = [
    `'{"date":' || ${quote('day')}`,
    `',"model":' || ${quote('model')}`,
    `',"model_permaslug":' || ${quote('model')}`,
    `',"endpoint_id":' || ${quote('endpoint_id')}`,
    `',"provider_name":' || ${quote('provider')}`,
    `',"usage":' || usage_nano`,
    `',"byok_usage_inference":' || byok_usage_nano`,
    `',"requests":' || requests`,
    `',"prompt_tokens":' || prompt_tokens`,
    `',"completion_tokens":' || completion_tokens`,
    `',"reasoning_tokens":' || reasoning_tokens`,
  ]
  if (byWorkspace) parts.push(`',"workspace_id":' || ${quote('workspace_id')}`)
  return `${parts.join(' || ')} || '}'`
}

/** The JSON text of the items (`{...},{...}`, '' when none), USD amounts as OpenRouter gives them. */
export async function readDailyActivityJson(db: Kysely<Database>, filter: ActivityFilter): Promise<string> {
  const quote =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (column: string) => `to_json(${column})::text`
      : (column: string) => `json_quote(${column})`
  const order = `day desc, model, provider, endpoint_id${filter.byWorkspace ? ', workspace_id' : ''}`
  const item = itemText(quote, filter.byWorkspace)
  const { rows } = await sql<{ count: unknown; items: string | null }>`select count(*) as count,
    string_agg(${sql.raw(item)}, ',' order by ${sql.raw(order)}) as items
    from (${rowsOf(tableOf(filter), filter)}) as item`.execute(db)
  const row = rows[0]
  return row === undefined ? '' : usdAmounts(row.items ?? '', Number(row.count))
}
