// Daily activity totals per (organization, UTC day, model, provider, endpoint): the organization-wide
// answer of GET /api/v1/activity (a management key with no filter: the console's overview, the SDK's
// getUserActivity()) reads one row per day and endpoint here instead of summing every workspace's and
// key's rows of `generation_daily_activity` (with 200 busy keys, ~40 times more rows: 350 ms instead of
// a few on a store of a million records). Triggers on `generation_daily_activity` add each change of a
// row to its total in the same transaction (the row's old values out, its new values in), so the two
// tables never disagree. On SQLite the table is WITHOUT ROWID: a range of days is one contiguous read of
// the primary key. Also an index for the activity of one key, which otherwise filters every key's rows.
import { PostgresAdapter, sql, type Kysely } from 'kysely'

const keyColumns = ['organization_id', 'day', 'model', 'provider', 'endpoint_id']
const sumColumns = [
  'requests',
  'prompt_tokens',
  'completion_tokens',
  'reasoning_tokens',
  'usage_nano',
  'byok_usage_nano',
]
const insertColumns = [...keyColumns, ...sumColumns].join(', ')

/** Adds the row `row` (NEW or OLD) to its total, times `sign`. */
function addRow(row: 'new' | 'old', sign: '+' | '-'): string {
  const values = [...keyColumns.map((column) => `${row}.${column}`), ...sumColumns.map((c) => `${sign}${row}.${c}`)]
  const additions = sumColumns
    .map((column) => `${column} = generation_daily_totals.${column} + excluded.${column}`)
    .join(', ')
  return `insert into generation_daily_totals (${insertColumns}) values (${values.join(', ')})
    on conflict (${keyColumns.join(', ')}) do update set ${additions}`
}

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db)
  let table = db.schema.createTable('generation_daily_totals')
  for (const column of keyColumns) table = table.addColumn(column, 'text', (c) => c.notNull())
  for (const column of sumColumns) table = table.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
  table = table.addPrimaryKeyConstraint('generation_daily_totals_pk', keyColumns as never)
  await (postgres ? table : table.modifyEnd(sql`without rowid`)).execute()
  await sql
    .raw(
      `insert into generation_daily_totals (${insertColumns})
       select ${keyColumns.join(', ')}, ${sumColumns.map((column) => `sum(${column})`).join(', ')}
       from generation_daily_activity group by ${keyColumns.join(', ')}`,
    )
    .execute(db)
  await db.schema
    .createIndex('generation_daily_activity_key')
    .on('generation_daily_activity')
    .columns(['key_hash', 'day'])
    .execute()
  if (!postgres) {
    const triggers = { insert: [addRow('new', '+')], update: [addRow('old', '-'), addRow('new', '+')] }
    for (const [event, statements] of Object.entries({ ...triggers, delete: [addRow('old', '-')] }))
      await sql
        .raw(
          `create trigger generation_daily_totals_${event} after ${event} on generation_daily_activity
           begin ${statements.join('; ')}; end`,
        )
        .execute(db)
    return
  }
  await sql
    .raw(
      `create function generation_daily_totals() returns trigger language plpgsql set search_path from current as $$
       begin
         if tg_op in ('UPDATE', 'DELETE') then ${addRow('old', '-')}; end if;
         if tg_op in ('INSERT', 'UPDATE') then ${addRow('new', '+')}; end if;
         return null;
       end $$`,
    )
    .execute(db)
  await sql
    .raw(
      `create trigger generation_daily_totals after insert or update or delete on generation_daily_activity
       for each row execute function generation_daily_totals()`,
    )
    .execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw('drop trigger generation_daily_totals on generation_daily_activity').execute(db)
    await sql.raw('drop function generation_daily_totals()').execute(db)
  } else {
    for (const event of ['insert', 'update', 'delete'])
      await sql.raw(`drop trigger generation_daily_totals_${event}`).execute(db)
  }
  await db.schema.dropIndex('generation_daily_activity_key').execute()
  await db.schema.dropTable('generation_daily_totals').execute()
}
