// Reads a page of generation records, newest first by (created_at, id), after a keyset position. Every
// filter is an equality or a range on an indexed column (migration 0012), so the page is an index range
// read whatever the store's size.
import type { Kysely } from 'kysely'
import type { Database } from '../store/database.ts'
import type { GenerationApiType, GenerationRecord, GenerationStatus } from './generation-record.ts'
import { fromGenerationRow } from './generation-row.ts'

export interface GenerationFilter {
  readonly organizationId: string
  readonly workspaceId?: string | undefined
  /** Only records made by keys of this intern (an intern's own key reads nothing else). */
  readonly internId?: string | undefined
  readonly keyHash?: string | undefined
  readonly model?: string | undefined
  readonly provider?: string | undefined
  readonly status?: GenerationStatus | undefined
  readonly apiType?: GenerationApiType | undefined
  readonly dialect?: string | undefined
  /** Inclusive lower bound of created_at (ISO, the stored format). */
  readonly from?: string | undefined
  /** Exclusive upper bound of created_at (ISO, the stored format). */
  readonly to?: string | undefined
  readonly endUser?: string | undefined
  readonly sessionId?: string | undefined
}

export interface ListPosition {
  readonly createdAt: string
  readonly id: string
}

const equalityColumns = {
  workspaceId: 'workspace_id',
  keyHash: 'key_hash',
  model: 'model',
  provider: 'provider',
  status: 'status',
  apiType: 'api_type',
  dialect: 'dialect',
  endUser: 'end_user',
  sessionId: 'session_id',
} as const satisfies Partial<Record<keyof GenerationFilter, keyof Database['generations']>>

export async function listGenerations(
  db: Kysely<Database>,
  filter: GenerationFilter,
  after: ListPosition | null,
  limit: number,
): Promise<GenerationRecord[]> {
  let query = db.selectFrom('generations').selectAll().where('organization_id', '=', filter.organizationId)
  for (const [field, column] of Object.entries(equalityColumns) as [keyof typeof equalityColumns, string][]) {
    const value = filter[field]
    if (value !== undefined) query = query.where(column as 'id', '=', value)
  }
  const internId = filter.internId
  if (internId !== undefined)
    query = query.where('key_hash', 'in', db.selectFrom('api_keys').select('hash').where('intern_id', '=', internId))
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from)
  if (filter.to !== undefined) query = query.where('created_at', '<', filter.to)
  if (after !== null)
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)))
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
  return rows.map(fromGenerationRow)
}
