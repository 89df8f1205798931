// Generation records: queued for the store's group commit (src/store/group-commit.ts), which writes
// them, a record and its content in one transaction, with the ledger rows of the same window and the
// records' sums in the daily activity tables (`activity-rollup.ts`). A record
// the store refuses on its own is set aside (`commitRows`: logged, counted) and the others are written.
// Reads look at the queued records first, so a record is visible the moment it is added.
import type { Kysely } from 'kysely'
import type { Database } from '../store/database.ts'
import { BatchInsert } from '../store/batch-insert.ts'
import type { RowsPlan } from '../store/commit-rows.ts'
import type { CommitQueue } from '../store/commit-queue.ts'
import type { GroupCommit } from '../store/group-commit.ts'
import type { GenerationContent, GenerationRecord } from './generation-record.ts'
import { ActivityRollup } from './activity-rollup.ts'
import { fromContentRow, fromGenerationRow, toContentRow, toGenerationRow } from './generation-row.ts'
import { listGenerations, type GenerationFilter, type ListPosition } from './list-generations.ts'
import { readDailyActivityJson, type ActivityFilter } from './read-daily-activity.ts'

interface Pending {
  readonly record: GenerationRecord
  readonly content: GenerationContent | null
}

export interface StoredGeneration {
  readonly record: GenerationRecord
  readonly content: GenerationContent | null
}

export class GenerationStore {
  readonly #db: Kysely<Database>
  readonly #commits: GroupCommit
  readonly #queue: CommitQueue<Pending>

  /** `commits` writes the records (the store's group commit); reads go through `db`. */
  constructor(db: Kysely<Database>, commits: GroupCommit) {
    this.#db = db
    this.#commits = commits
    this.#queue = commits.queue(recordsPlan(db))
  }

  add(record: GenerationRecord, content: GenerationContent | null): void {
    this.#queue.add(record.id, { record, content })
  }

  async find(id: string): Promise<StoredGeneration | undefined> {
    const pending = this.#queue.get(id)
    if (pending !== undefined) return pending
    const row = await this.#db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst()
    if (row === undefined) return undefined
    const content = await this.#db
      .selectFrom('generation_contents')
      .selectAll()
      .where('generation_id', '=', id)
      .executeTakeFirst()
    return { record: fromGenerationRow(row), content: content === undefined ? null : fromContentRow(content) }
  }

  /**
   * A page of records, newest first, after `after`; the records waiting in memory are written first, so
   * a listing shows every response already sent.
   */
  async list(filter: GenerationFilter, after: ListPosition | null, limit: number): Promise<GenerationRecord[]> {
    await this.flush()
    return listGenerations(this.#db, filter, after, limit)
  }

  /**
   * Daily activity sums as the JSON text of GET /api/v1/activity's items (`{...},{...}`); the records
   * waiting in memory are written (and so counted) first.
   */
  async dailyActivityJson(filter: ActivityFilter): Promise<string> {
    await this.flush()
    return readDailyActivityJson(this.#db, filter)
  }

  /** Commits what is queued (with every other queue of the group commit); a failure is told to its `onError`. */
  flush(): Promise<void> {
    return this.#commits.flush()
  }

  /** Deletes stored content created before `before` (ISO); records are kept. Returns rows deleted. */
  async deleteContentBefore(before: string): Promise<number> {
    const result = await this.#db.deleteFrom('generation_contents').where('created_at', '<', before).executeTakeFirst()
    return Number(result.numDeletedRows)
  }
}

/**
 * Records, their content and their daily sums are written in one transaction (the sums count each record
 * once, a record stored already not again); a rejected record is logged by its id.
 */
function recordsPlan(db: Kysely<Database>): RowsPlan<Pending> {
  const rollup = new ActivityRollup(db)
  const insertRecords = new BatchInsert<Database['generations']>(db, 'generations', { skipConflictsOn: ['id'] })
  const insertContents = new BatchInsert<Database['generation_contents']>(db, 'generation_contents', {
    skipConflictsOn: ['generation_id'],
  })
  return {
    table: 'generations',
    statementsOf: (items) => {
      const sums = rollup.statements(items.map(({ record }) => record))
      return [
        ...sums.before,
        ...insertRecords.statements(items.map(({ record }) => toGenerationRow(record))),
        ...insertContents.statements(
          items.filter((item) => item.content !== null).map(({ record, content }) => toContentRow(record, content!)),
        ),
        ...sums.after,
      ]
    },
    describe: ({ record }) => ({ id: record.id }),
  }
}
