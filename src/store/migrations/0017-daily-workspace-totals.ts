// Daily activity totals per (organization, UTC day, model, provider, endpoint, workspace): the answer of
// GET /api/v1/activity with `group_by=workspace`, and of one workspace's activity (an inference key's
// own view, or `workspace_id=`), read as it is stored instead of summing every key's rows of
// `generation_daily_activity` (with ten keys a workspace, ~2 times more rows to read and a GROUP BY
// over all of them: EXPLAIN QUERY PLAN showed two temporary B-trees, one to group and one to order).
// The primary key is the answer's order after the day (day desc, then model, provider, endpoint and
// workspace), so a range of days is one contiguous read that only sorts within each day; an index on
// (workspace, day) serves one workspace. Triggers on `generation_daily_activity` keep the table in
// the same transaction, like migration 0015's totals. An update that keeps the row's key (every
// record added to an existing daily row) adds its difference in one upsert; one that moves the row
// takes the old values out and puts the new ones in. On SQLite the table is WITHOUT ROWID.
import { PostgresAdapter, sql, type Kysely } from 'kysely'

const table = 'generation_daily_workspace_totals'
const keyColumns = ['organization_id', 'day', 'model', 'provider', 'endpoint_id', 'workspace_id']
const sumColumns = [
  'requests',
  'prompt_tokens',
  'completion_tokens',
  'reasoning_tokens',
  'usage_nano',
  'byok_usage_nano',
]
const insertColumns = [...keyColumns, ...sumColumns].join(', ')

/** Adds `sums` (one expression per sum column) to the total of the row `row`'s key. */
function upsert(row: 'new' | 'old', sums: string[]): string {
  const additions = sumColumns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ')
  const values = [...keyColumns.map((column) => `${row}.${column}`), ...sums]
  return `insert into ${table} (${insertColumns}) values (${values.join(', ')})
    on conflict (${keyColumns.join(', ')}) do update set ${additions}`
}

const plus = (row: 'new' | 'old') =>
  upsert(
    row,
    sumColumns.map((column) => `${row}.${column}`),
  )
const minus = (row: 'new' | 'old') =>
  upsert(
    row,
    sumColumns.map((column) => `-${row}.${column}`),
  )
const difference = upsert(
  'new',
  sumColumns.map((column) => `new.${column} - old.${column}`),
)
const sameKey = keyColumns.map((column) => `old.${column} = new.${column}`).join(' and ')

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter

async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const triggers: Record<string, string> = {
    insert: `after insert on generation_daily_activity begin ${plus('new')}; end`,
    update_in_place: `after update on generation_daily_activity when ${sameKey} begin ${difference}; end`,
    update_moved: `after update on generation_daily_activity when not (${sameKey})
      begin ${minus('old')}; ${plus('new')}; end`,
    delete: `after delete on generation_daily_activity begin ${minus('old')}; end`,
  }
  for (const [name, body] of Object.entries(triggers))
    await sql.raw(`create trigger ${table}_${name} ${body}`).execute(db)
}

async function createPostgresTrigger(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create function ${table}() returns trigger language plpgsql set search_path from current as $$
       begin
         if tg_op = 'INSERT' then ${plus('new')};
         elsif tg_op = 'DELETE' then ${minus('old')};
         elsif ${sameKey} then ${difference};
         else ${minus('old')}; ${plus('new')};
         end if;
         return null;
       end $$`,
    )
    .execute(db)
  await sql
    .raw(
      `create trigger ${table} after insert or update or delete on generation_daily_activity
       for each row execute function ${table}()`,
    )
    .execute(db)
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db)
  let builder = db.schema.createTable(table)
  for (const column of keyColumns) builder = builder.addColumn(column, 'text', (c) => c.notNull())
  for (const column of sumColumns) builder = builder.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
  builder = builder.addPrimaryKeyConstraint(`${table}_pk`, keyColumns as never)
  await (postgres ? builder : builder.modifyEnd(sql`without rowid`)).execute()
  await sql
    .raw(
      `insert into ${table} (${insertColumns})
       select ${keyColumns.join(', ')}, ${sumColumns.map((column) => `sum(${column})`).join(', ')}
       from generation_daily_activity group by ${keyColumns.join(', ')}`,
    )
    .execute(db)
  await db.schema.createIndex(`${table}_workspace`).on(table).columns(['workspace_id', 'day']).execute()
  await (postgres ? createPostgresTrigger(db) : createSqliteTriggers(db))
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw(`drop trigger ${table} on generation_daily_activity`).execute(db)
    await sql.raw(`drop function ${table}()`).execute(db)
  } else {
    for (const name of ['insert', 'update_in_place', 'update_moved', 'delete'])
      await sql.raw(`drop trigger ${table}_${name}`).execute(db)
  }
  await db.schema.dropTable(table).execute()
}
