// Writes generation records off the response path: records wait in memory and are inserted in
// batches (every `flushIntervalMs` or `batchSize` records, and on close), a record and its content in
// one transaction, a slice of records at a time (`inSlices`), through the store's `WriteBehind` (a
// worker thread on a SQLite file). A record the store refuses on its own is set aside (`commitRows`:
// logged, counted) and the others are written. Reads look at the pending records first, so a record is
// visible the moment its response is sent.
import type { Kysely } from 'kysely'
import type { Database } from '../store/database.ts'
import { BatchInsert, inSlices } from '../store/batch-insert.ts'
import { commitRows, type RowsPlan } from '../store/commit-rows.ts'
import type { WriteBehind } from '../store/write-behind.ts'
import type { GenerationContent, GenerationRecord } from './generation-record.ts'
import { fromContentRow, fromGenerationRow, toContentRow, toGenerationRow } from './generation-row.ts'
import { listGenerations, type GenerationFilter, type ListPosition } from './list-generations.ts'
import { readDailyActivity, type ActivityFilter, type ActivityRow } from './read-daily-activity.ts'

interface Pending {
  readonly record: GenerationRecord
  readonly content: GenerationContent | null
}

export interface StoredGeneration {
  readonly record: GenerationRecord
  readonly content: GenerationContent | null
}

export class GenerationStore {
  #pending = new Map<string, Pending>()
  #timer: NodeJS.Timeout | null = null
  #flushing: Promise<void> = Promise.resolve()
  readonly #db: Kysely<Database>
  readonly #writes: WriteBehind
  readonly #onError: (error: unknown) => void
  readonly #batchSize: number
  readonly #plan: RowsPlan<Pending>

  /** `writes` commits the records (the store's `WriteBehind`); reads go through `db`. */
  constructor(db: Kysely<Database>, writes: WriteBehind, onError: (error: unknown) => void, batchSize = 200) {
    this.#db = db
    this.#writes = writes
    this.#plan = recordsPlan(db)
    this.#onError = onError
    this.#batchSize = batchSize
  }

  start(flushIntervalMs = 250): void {
    this.#timer = setInterval(() => void this.flush(), flushIntervalMs)
    this.#timer.unref()
  }

  add(record: GenerationRecord, content: GenerationContent | null): void {
    this.#pending.set(record.id, { record, content })
    if (this.#pending.size >= this.#batchSize) void this.flush()
  }

  async find(id: string): Promise<StoredGeneration | undefined> {
    const pending = this.#pending.get(id)
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

  /** Daily activity sums; the records waiting in memory are written (and so counted) first. */
  async dailyActivity(filter: ActivityFilter): Promise<ActivityRow[]> {
    await this.flush()
    return readDailyActivity(this.#db, filter)
  }

  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#write())
    return this.#flushing
  }

  /** Deletes stored content created before `before` (ISO); records are kept. Returns rows deleted. */
  async deleteContentBefore(before: string): Promise<number> {
    const result = await this.#db.deleteFrom('generation_contents').where('created_at', '<', before).executeTakeFirst()
    return Number(result.numDeletedRows)
  }

  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer)
    this.#timer = null
    await this.flush()
  }

  async #write(): Promise<void> {
    if (this.#pending.size === 0) return
    try {
      await inSlices([...this.#pending.values()], async (slice) => {
        await commitRows(this.#writes, slice, this.#plan)
        for (const { record } of slice)
          if (this.#pending.get(record.id)?.record === record) this.#pending.delete(record.id)
      })
    } catch (error) {
      this.#onError(error)
    }
  }
}

/** A record and its content are written in one transaction; a rejected record is logged by its id. */
function recordsPlan(db: Kysely<Database>): RowsPlan<Pending> {
  const insertRecords = new BatchInsert<Database['generations']>(db, 'generations', { skipConflictsOn: ['id'] })
  const insertContents = new BatchInsert<Database['generation_contents']>(db, 'generation_contents', {
    skipConflictsOn: ['generation_id'],
  })
  return {
    table: 'generations',
    statementsOf: (items) => [
      ...insertRecords.statements(items.map(({ record }) => toGenerationRow(record))),
      ...insertContents.statements(
        items.filter((item) => item.content !== null).map(({ record, content }) => toContentRow(record, content!)),
      ),
    ],
    describe: ({ record }) => ({ id: record.id }),
  }
}
