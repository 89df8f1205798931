// Generation records: queued for the store's group commit (src/store/group-commit.ts), which writes
// them, a record and its content in one transaction, with the ledger rows of the same window. A record
// the store refuses on its own is set aside (`commitRows`: logged, counted) and the others are written.
// Reads look at the queued records first, so a record is visible the moment it is added.
import type { Kysely } from 'kysely'
import type { Database } from '../store/database.ts'
import { BatchInsert } from '../store/batch-insert.ts'
import type { RowsPlan } from '../store/commit-rows.ts'
import type { CommitQueue } from '../store/commit-queue.ts'
import type { GroupCommit } from '../store/group-commit.ts'
import type { GenerationContent, GenerationRecord } from './generation-record.ts'

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
    return { record: fromRow(row), content: content === undefined ? null : fromContentRow(content) }
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

/** A record and its content are written in one transaction; a rejected record is logged by its id. */
function recordsPlan(db: Kysely<Database>): RowsPlan<Pending> {
  const insertRecords = new BatchInsert<Database['generations']>(db, 'generations', { skipConflictsOn: ['id'] })
  const insertContents = new BatchInsert<Database['generation_contents']>(db, 'generation_contents', {
    skipConflictsOn: ['generation_id'],
  })
  return {
    table: 'generations',
    statementsOf: (items) => [
      ...insertRecords.statements(items.map(({ record }) => toRow(record))),
      ...insertContents.statements(
        items.filter((item) => item.content !== null).map(({ record, content }) => toContentRow(record, content!)),
      ),
    ],
    describe: ({ record }) => ({ id: record.id }),
  }
}

function toRow(record: GenerationRecord): Database['generations'] {
  return {
    id: record.id,
    request_id: record.requestId,
    organization_id: record.organizationId,
    workspace_id: record.workspaceId,
    key_hash: record.keyHash,
    api_type: record.apiType,
    dialect: record.dialect,
    model: record.model,
    provider: record.provider,
    upstream_model_id: record.upstreamModelId,
    upstream_id: record.upstreamId,
    streamed: record.streamed ? 1 : 0,
    cancelled: record.cancelled ? 1 : 0,
    status: record.status,
    finish_reason: record.finishReason,
    native_finish_reason: record.nativeFinishReason,
    tokens_prompt: record.tokensPrompt,
    tokens_completion: record.tokensCompletion,
    tokens_cached: record.tokensCached,
    tokens_reasoning: record.tokensReasoning,
    cost_nano: record.costNano.toString(),
    unbilled_excess_nano: record.unbilledExcessNano.toString(),
    is_byok: record.isByok ? 1 : 0,
    latency_ms: record.latencyMs,
    generation_time_ms: record.generationTimeMs,
    session_id: record.sessionId,
    end_user: record.endUser,
    preset: record.preset,
    service_tier: record.serviceTier,
    attempts: JSON.stringify(record.attempts),
    error_status: record.errorStatus,
    error_message: record.errorMessage,
    http_referer: record.httpReferer,
    user_agent: record.userAgent,
    created_at: record.createdAt,
  }
}

function fromRow(row: Database['generations']): GenerationRecord {
  return {
    id: row.id,
    requestId: row.request_id,
    organizationId: row.organization_id,
    workspaceId: row.workspace_id,
    keyHash: row.key_hash,
    apiType: row.api_type as GenerationRecord['apiType'],
    dialect: row.dialect,
    model: row.model,
    provider: row.provider,
    upstreamModelId: row.upstream_model_id,
    upstreamId: row.upstream_id,
    streamed: row.streamed === 1,
    cancelled: row.cancelled === 1,
    status: row.status as GenerationRecord['status'],
    finishReason: row.finish_reason,
    nativeFinishReason: row.native_finish_reason,
    tokensPrompt: row.tokens_prompt,
    tokensCompletion: row.tokens_completion,
    tokensCached: row.tokens_cached,
    tokensReasoning: row.tokens_reasoning,
    costNano: BigInt(row.cost_nano),
    unbilledExcessNano: BigInt(row.unbilled_excess_nano),
    isByok: row.is_byok === 1,
    latencyMs: row.latency_ms,
    generationTimeMs: row.generation_time_ms,
    sessionId: row.session_id,
    endUser: row.end_user,
    preset: row.preset,
    serviceTier: row.service_tier,
    attempts: JSON.parse(row.attempts),
    errorStatus: row.error_status,
    errorMessage: row.error_message,
    httpReferer: row.http_referer,
    userAgent: row.user_agent,
    createdAt: row.created_at,
  }
}

function toContentRow(record: GenerationRecord, content: GenerationContent): Database['generation_contents'] {
  return {
    generation_id: record.id,
    workspace_id: record.workspaceId,
    input: JSON.stringify(content.input),
    output_completion: content.completion,
    output_reasoning: content.reasoning,
    error: content.error === null ? null : JSON.stringify(content.error),
    created_at: record.createdAt,
  }
}

function fromContentRow(row: Database['generation_contents']): GenerationContent {
  return {
    input: JSON.parse(row.input),
    completion: row.output_completion,
    reasoning: row.output_reasoning,
    error: row.error === null ? null : JSON.parse(row.error),
  }
}
