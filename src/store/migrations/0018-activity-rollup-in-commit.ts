// The daily activity tables (migrations 0014, 0015, 0017) are kept by the group commit that writes the
// generation records (`src/generations/activity-rollup.ts`: one upsert per table and batch, in the
// records' transaction) instead of triggers (one chain of three or four upserts per record), so the
// triggers go. The tables and their sums stay as they are. Down puts the triggers back as those
// migrations made them: it drops the three tables and runs their `up` again, which sums the stored
// records anew (a scan of every record, as when they first ran).
import { PostgresAdapter, sql, type Kysely } from 'kysely'
import * as dailyActivity from './0014-daily-activity.ts'
import * as dailyActivityTotals from './0015-daily-activity-totals.ts'
import * as dailyWorkspaceTotals from './0017-daily-workspace-totals.ts'

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter

/** The triggers of migrations 0014, 0015 and 0017; on PostgreSQL each runs a function of its name. */
const sqliteTriggers = [
  'generations_daily_activity',
  'generation_daily_totals_insert',
  'generation_daily_totals_update',
  'generation_daily_totals_delete',
  'generation_daily_workspace_totals_insert',
  'generation_daily_workspace_totals_update_in_place',
  'generation_daily_workspace_totals_update_moved',
  'generation_daily_workspace_totals_delete',
]
const postgresTriggers = [
  { name: 'generations_daily_activity', table: 'generations' },
  { name: 'generation_daily_totals', table: 'generation_daily_activity' },
  { name: 'generation_daily_workspace_totals', table: 'generation_daily_activity' },
]

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) {
    for (const name of sqliteTriggers) await sql.raw(`drop trigger ${name}`).execute(db)
    return
  }
  for (const { name, table } of postgresTriggers) {
    await sql.raw(`drop trigger ${name} on ${table}`).execute(db)
    await sql.raw(`drop function ${name}()`).execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['generation_daily_workspace_totals', 'generation_daily_totals', 'generation_daily_activity'])
    await db.schema.dropTable(table).execute()
  await dailyActivity.up(db)
  await dailyActivityTotals.up(db)
  await dailyWorkspaceTotals.up(db)
}
