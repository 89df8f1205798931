// Daily activity per (organization, UTC day, workspace, key, model, provider, endpoint): the table
// behind GET /api/v1/activity, so 30 days of activity is a read of a few hundred rows, not a scan of
// millions of generation records. A trigger on `generations` adds each inserted record in the same
// transaction (a record skipped as a duplicate id fires nothing), and existing records are summed once
// here. The endpoint is the last attempt's `endpointId` (the one that served or failed last), '' when
// the request never reached one; costs are nano-USD, BYOK records apart.
import { PostgresAdapter, sql, type Kysely } from 'kysely'

const keyColumns = 'organization_id, day, workspace_id, key_hash, model, provider, endpoint_id'
const sumColumns = [
  'requests',
  'prompt_tokens',
  'completion_tokens',
  'reasoning_tokens',
  'usage_nano',
  'byok_usage_nano',
]
const insertColumns = `${keyColumns}, ${sumColumns.join(', ')}`

/** The values a record adds, over the row alias `r` (NEW in the trigger, the table in the backfill). */
function recordValues(engine: Engine, r: string): string[] {
  const lastEndpoint =
    engine === 'sqlite'
      ? `json_extract(${r}.attempts, '$[#-1].endpointId')`
      : `(${r}.attempts::jsonb -> -1 ->> 'endpointId')`
  const cost = engine === 'sqlite' ? `cast(${r}.cost_nano as integer)` : `${r}.cost_nano::bigint`
  return [
    `${r}.organization_id`,
    `substr(${r}.created_at, 1, 10)`,
    `${r}.workspace_id`,
    `${r}.key_hash`,
    `${r}.model`,
    `coalesce(${r}.provider, '')`,
    `coalesce(${lastEndpoint}, '')`,
    '1',
    `${r}.tokens_prompt`,
    `${r}.tokens_completion`,
    `${r}.tokens_reasoning`,
    `case when ${r}.is_byok = 0 then ${cost} else 0 end`,
    `case when ${r}.is_byok = 0 then 0 else ${cost} end`,
  ]
}

function upsert(engine: Engine): string {
  const additions = sumColumns
    .map((column) => `${column} = generation_daily_activity.${column} + excluded.${column}`)
    .join(', ')
  return `insert into generation_daily_activity (${insertColumns}) values (${recordValues(engine, 'new').join(', ')})
    on conflict (${keyColumns}) do update set ${additions}`
}

type Engine = 'sqlite' | 'postgres'

function engineOf(db: Kysely<unknown>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const engine = engineOf(db)
  let table = db.schema
    .createTable('generation_daily_activity')
    .addColumn('organization_id', 'text', (column) => column.notNull())
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('workspace_id', 'text', (column) => column.notNull())
    .addColumn('key_hash', 'text', (column) => column.notNull())
    .addColumn('model', 'text', (column) => column.notNull())
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('endpoint_id', 'text', (column) => column.notNull())
  for (const column of sumColumns) table = table.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
  await table.addPrimaryKeyConstraint('generation_daily_activity_pk', keyColumns.split(', ') as never).execute()
  await db.schema
    .createIndex('generation_daily_activity_workspace')
    .on('generation_daily_activity')
    .columns(['workspace_id', 'day'])
    .execute()
  await sql
    .raw(
      `insert into generation_daily_activity (${insertColumns})
       select ${keyColumns}, ${sumColumns.map((column) => `sum(${column})`).join(', ')}
       from (select ${recordValuesAs(engine)} from generations g) as each_record
       group by ${keyColumns}`,
    )
    .execute(db)
  if (engine === 'sqlite') {
    await sql
      .raw(`create trigger generations_daily_activity after insert on generations begin ${upsert(engine)}; end`)
      .execute(db)
  } else {
    await sql
      .raw(
        `create function generations_daily_activity() returns trigger language plpgsql set search_path from current as $$
         begin ${upsert(engine)}; return null; end $$`,
      )
      .execute(db)
    await sql
      .raw(
        'create trigger generations_daily_activity after insert on generations for each row execute function generations_daily_activity()',
      )
      .execute(db)
  }
}

/** The record values of `recordValues`, named as the table's columns (for the backfill's grouping). */
function recordValuesAs(engine: Engine): string {
  const names = insertColumns.split(', ')
  return recordValues(engine, 'g')
    .map((value, index) => `${value} as ${names[index]}`)
    .join(', ')
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === 'postgres') {
    await sql.raw('drop trigger generations_daily_activity on generations').execute(db)
    await sql.raw('drop function generations_daily_activity()').execute(db)
  } else {
    await sql.raw('drop trigger generations_daily_activity').execute(db)
  }
  await db.schema.dropTable('generation_daily_activity').execute()
}
