// API key rows. Only the SHA-256 hash of a key is ever stored.
import type { Kysely, Selectable } from 'kysely'
import type { ApiKeyTable, Database } from '../database.ts'
import type { ApiKeyKind, ApiKeyRecord, LimitReset } from '../../domain/identity.ts'

export interface NewApiKey {
  readonly hash: string
  readonly kind: ApiKeyKind
  readonly name: string
  readonly label: string
  readonly organizationId: string
  readonly workspaceId: string
  readonly internId?: string | null
  readonly creatorUserId?: string | null
  readonly expiresAt?: string | null
  readonly limitUsd?: string | null
  readonly limitReset?: LimitReset | null
  readonly includeByokInLimit?: boolean
  readonly externalUser?: string | null
  readonly responseCacheEnabled?: boolean | null
  readonly responseCacheTtlSeconds?: number | null
  /** SHA-256 of the partner's `external.api_key`; stored only, never read back into a record. */
  readonly externalApiKeyHash?: string | null
  readonly createdAt: string
}

export type ApiKeyChanges = Partial<
  Pick<
    ApiKeyRecord,
    | 'name'
    | 'disabled'
    | 'limitUsd'
    | 'limitReset'
    | 'includeByokInLimit'
    | 'responseCacheEnabled'
    | 'responseCacheTtlSeconds'
  >
>

export interface ListApiKeysQuery {
  readonly workspaceId?: string
  readonly includeDisabled?: boolean
  readonly kinds?: readonly ApiKeyKind[]
  readonly offset?: number
  readonly limit?: number
}

/** A tri-state setting as its column: 1, 0 or null. */
function flag(value: boolean | null): number | null {
  return value === null ? null : Number(value)
}

export function toApiKeyRecord(row: Selectable<ApiKeyTable>): ApiKeyRecord {
  return {
    hash: row.hash,
    kind: row.kind as ApiKeyKind,
    name: row.name,
    label: row.label,
    organizationId: row.organization_id,
    workspaceId: row.workspace_id,
    internId: row.intern_id,
    creatorUserId: row.creator_user_id,
    disabled: row.disabled === 1,
    expiresAt: row.expires_at,
    limitUsd: row.limit_usd,
    limitReset: row.limit_reset as LimitReset | null,
    includeByokInLimit: row.include_byok_in_limit === 1,
    externalUser: row.external_user,
    responseCacheEnabled: row.response_cache_enabled === null ? null : row.response_cache_enabled === 1,
    responseCacheTtlSeconds: row.response_cache_ttl_seconds,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastUsedAt: row.last_used_at,
  }
}

export function createApiKeysRepository(db: Kysely<Database>) {
  return {
    insert: (key: NewApiKey) => insertApiKey(db, key),
    findByHash: (hash: string) => findApiKeyByHash(db, hash),
    list: (query?: ListApiKeysQuery) => listApiKeys(db, query),
    update: (hash: string, changes: ApiKeyChanges, updatedAt: string) => updateApiKey(db, hash, changes, updatedAt),
    touchLastUsed: (entries: ReadonlyMap<string, string>) => touchLastUsed(db, entries),
    delete: (hash: string) => deleteApiKey(db, hash),
  }
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>

async function insertApiKey(db: Kysely<Database>, key: NewApiKey): Promise<ApiKeyRecord> {
  const row = {
    hash: key.hash,
    kind: key.kind,
    name: key.name,
    label: key.label,
    organization_id: key.organizationId,
    workspace_id: key.workspaceId,
    intern_id: key.internId ?? null,
    creator_user_id: key.creatorUserId ?? null,
    disabled: 0,
    expires_at: key.expiresAt ?? null,
    limit_usd: key.limitUsd ?? null,
    limit_reset: key.limitReset ?? null,
    include_byok_in_limit: key.includeByokInLimit === true ? 1 : 0,
    external_user: key.externalUser ?? null,
    external_api_key_hash: key.externalApiKeyHash ?? null,
    response_cache_enabled: flag(key.responseCacheEnabled ?? null),
    response_cache_ttl_seconds: key.responseCacheTtlSeconds ?? null,
    created_at: key.createdAt,
    updated_at: null,
    last_used_at: null,
  }
  await db.insertInto('api_keys').values(row).execute()
  return toApiKeyRecord(row)
}

async function findApiKeyByHash(db: Kysely<Database>, hash: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst()
  return row === undefined ? undefined : toApiKeyRecord(row)
}

async function listApiKeys(db: Kysely<Database>, query: ListApiKeysQuery = {}): Promise<ApiKeyRecord[]> {
  let select = db.selectFrom('api_keys').selectAll()
  if (query.workspaceId !== undefined) select = select.where('workspace_id', '=', query.workspaceId)
  if (query.includeDisabled !== true) select = select.where('disabled', '=', 0)
  if (query.kinds !== undefined) select = select.where('kind', 'in', [...query.kinds])
  const rows = await select
    .orderBy('created_at', 'desc')
    .orderBy('hash')
    .limit(query.limit ?? 1_000_000)
    .offset(query.offset ?? 0)
    .execute()
  return rows.map(toApiKeyRecord)
}

async function updateApiKey(
  db: Kysely<Database>,
  hash: string,
  changes: ApiKeyChanges,
  updatedAt: string,
): Promise<ApiKeyRecord | undefined> {
  const values: Partial<ApiKeyTable> = { updated_at: updatedAt }
  if (changes.name !== undefined) values.name = changes.name
  if (changes.disabled !== undefined) values.disabled = changes.disabled ? 1 : 0
  if (changes.limitUsd !== undefined) values.limit_usd = changes.limitUsd
  if (changes.limitReset !== undefined) values.limit_reset = changes.limitReset
  if (changes.includeByokInLimit !== undefined) values.include_byok_in_limit = changes.includeByokInLimit ? 1 : 0
  if (changes.responseCacheEnabled !== undefined) values.response_cache_enabled = flag(changes.responseCacheEnabled)
  if (changes.responseCacheTtlSeconds !== undefined) values.response_cache_ttl_seconds = changes.responseCacheTtlSeconds
  await db.updateTable('api_keys').set(values).where('hash', '=', hash).execute()
  return findApiKeyByHash(db, hash)
}

async function touchLastUsed(db: Kysely<Database>, entries: ReadonlyMap<string, string>): Promise<void> {
  if (entries.size === 0) return
  await db.transaction().execute(async (transaction) => {
    for (const [hash, usedAt] of entries) {
      await transaction.updateTable('api_keys').set({ last_used_at: usedAt }).where('hash', '=', hash).execute()
    }
  })
}

async function deleteApiKey(db: Kysely<Database>, hash: string): Promise<boolean> {
  const result = await db.deleteFrom('api_keys').where('hash', '=', hash).executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}
