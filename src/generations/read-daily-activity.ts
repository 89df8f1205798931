// Sums the daily activity table (migration 0014) over a range of UTC days, per day, model, provider and
// endpoint (and workspace when asked), within a key's scope. Answers that need no key's rows read tables
// already summed instead: the organization-wide answer, with no filter, the daily totals (migration
// 0015: one row per day and endpoint), and one per workspace or of one workspace the daily workspace
// totals (migration 0017: one row per day, endpoint and workspace).
import type { Kysely } from 'kysely'
import type { Database } from '../store/database.ts'

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

export interface ActivityRow {
  readonly day: string
  readonly model: string
  readonly provider: string
  readonly endpointId: string
  readonly workspaceId: string | null
  readonly requests: number
  readonly promptTokens: number
  readonly completionTokens: number
  readonly reasoningTokens: number
  readonly usageNano: bigint
  readonly byokUsageNano: bigint
}

interface SummedRow {
  readonly day: string
  readonly model: string
  readonly provider: string
  readonly endpoint_id: string
  readonly workspace_id?: string
  readonly requests: unknown
  readonly prompt_tokens: unknown
  readonly completion_tokens: unknown
  readonly reasoning_tokens: unknown
  readonly usage_nano: unknown
  readonly byok_usage_nano: unknown
}

const toActivityRow = (row: SummedRow, byWorkspace: boolean): ActivityRow => ({
  day: row.day,
  model: row.model,
  provider: row.provider,
  endpointId: row.endpoint_id,
  workspaceId: byWorkspace ? (row.workspace_id ?? null) : null,
  requests: Number(row.requests),
  promptTokens: Number(row.prompt_tokens),
  completionTokens: Number(row.completion_tokens),
  reasoningTokens: Number(row.reasoning_tokens),
  usageNano: BigInt(String(row.usage_nano)),
  byokUsageNano: BigInt(String(row.byok_usage_nano)),
})

/** No filter narrows the answer below whole workspaces. */
const isPerWorkspace = (filter: ActivityFilter) =>
  filter.keyHash === undefined && filter.internId === undefined && filter.creatorUserId === undefined

export async function readDailyActivity(db: Kysely<Database>, filter: ActivityFilter): Promise<ActivityRow[]> {
  if (isPerWorkspace(filter))
    return filter.workspaceId === undefined && !filter.byWorkspace
      ? readDailyTotals(db, filter)
      : readWorkspaceTotals(db, filter)
  const groups: ('day' | 'model' | 'provider' | 'endpoint_id' | 'workspace_id')[] = [
    'day',
    'model',
    'provider',
    'endpoint_id',
  ]
  if (filter.byWorkspace) groups.push('workspace_id')
  let query = db
    .selectFrom('generation_daily_activity')
    .select(groups)
    .select((eb) => [
      eb.fn.sum('requests').as('requests'),
      eb.fn.sum('prompt_tokens').as('prompt_tokens'),
      eb.fn.sum('completion_tokens').as('completion_tokens'),
      eb.fn.sum('reasoning_tokens').as('reasoning_tokens'),
      eb.fn.sum('usage_nano').as('usage_nano'),
      eb.fn.sum('byok_usage_nano').as('byok_usage_nano'),
    ])
    .where('organization_id', '=', filter.organizationId)
    .where('day', '>=', filter.fromDay)
    .where('day', '<=', filter.toDay)
  if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId)
  if (filter.keyHash !== undefined) query = query.where('key_hash', '=', filter.keyHash)
  const { internId, creatorUserId } = filter
  if (internId !== undefined)
    query = query.where('key_hash', 'in', db.selectFrom('api_keys').select('hash').where('intern_id', '=', internId))
  if (creatorUserId !== undefined)
    query = query.where(
      'key_hash',
      'in',
      db.selectFrom('api_keys').select('hash').where('creator_user_id', '=', creatorUserId),
    )
  const rows = await query
    .groupBy(groups)
    .orderBy('day', 'desc')
    .orderBy('model')
    .orderBy('provider')
    .orderBy('endpoint_id')
    .execute()
  return rows.map((row) => toActivityRow(row, filter.byWorkspace))
}

const sums = [
  'requests',
  'prompt_tokens',
  'completion_tokens',
  'reasoning_tokens',
  'usage_nano',
  'byok_usage_nano',
] as const

async function readWorkspaceTotals(db: Kysely<Database>, filter: ActivityFilter): Promise<ActivityRow[]> {
  let query = db
    .selectFrom('generation_daily_workspace_totals')
    .select(['day', 'model', 'provider', 'endpoint_id', 'workspace_id', ...sums])
    .where('organization_id', '=', filter.organizationId)
    .where('day', '>=', filter.fromDay)
    .where('day', '<=', filter.toDay)
  if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId)
  const rows = await query
    .orderBy('day', 'desc')
    .orderBy('model')
    .orderBy('provider')
    .orderBy('endpoint_id')
    .orderBy('workspace_id')
    .execute()
  return rows.map((row) => toActivityRow(row, filter.byWorkspace))
}

async function readDailyTotals(db: Kysely<Database>, filter: ActivityFilter): Promise<ActivityRow[]> {
  const rows = await db
    .selectFrom('generation_daily_totals')
    .select(['day', 'model', 'provider', 'endpoint_id', ...sums])
    .where('organization_id', '=', filter.organizationId)
    .where('day', '>=', filter.fromDay)
    .where('day', '<=', filter.toDay)
    .orderBy('day', 'desc')
    .orderBy('model')
    .orderBy('provider')
    .orderBy('endpoint_id')
    .execute()
  return rows.map((row) => toActivityRow(row, false))
}
