// API keys: create (inference keys; the plaintext is shown once), list, get, update, delete, and the
// calling key's own view. Usage fields come from the spend counters; every change is announced on the
// change bus so the in-memory key cache applies it to the very next request.
import { createHash } from 'node:crypto'
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { ChangeBus } from '../../events/change-bus.ts'
import type { SpendCounters } from '../../counters/spend-counters.ts'
import type { ApiKeysRepository, ApiKeyChanges } from '../../store/repositories/api-keys-repository.ts'
import type { OrganizationsRepository } from '../../store/repositories/organizations-repository.ts'
import { generateKeySecret, hashKeySecret, labelKeySecret } from '../../identity/api-key-secret.ts'
import { readKeysUsage } from '../../accounting/read-keys-usage.ts'
import type { KeyUsageFields } from '../../accounting/key-usage.ts'
import { parseExpiresAt } from './parse-expires-at.ts'
import { toCurrentKey } from './current-key.ts'
import type { ApiKey, CreateKeyBody, CurrentKey, ListKeysQuery, UpdateKeyBody } from './schema.ts'
import type { RateLimitRule } from '../../domain/rate-limit-rule.ts'
import { checkResponseCacheTtl } from '../response-cache-fields.ts'

/** The rate-limit rules set on keys (shown on each key, removed with it) and on their workspaces (shown too). */
export interface KeyRateLimits {
  rulesOf(hash: string): readonly RateLimitRule[]
  workspaceRulesOf(workspaceId: string): readonly RateLimitRule[]
  deleteRulesOf(hash: string): Promise<void>
}

export interface KeysServiceDeps {
  readonly apiKeys: ApiKeysRepository
  readonly organizations: OrganizationsRepository
  readonly counters: SpendCounters
  readonly clock: Clock
  readonly bus: ChangeBus
  readonly organizationId: string
  readonly defaultWorkspaceId: string
  readonly ownerUserId: string
  readonly rateLimits: KeyRateLimits
  /** `cache.max_ttl_seconds`: the largest `cache_ttl_seconds` a key accepts. */
  readonly maxCacheTtlSeconds: number
}

/** GET /keys returns at most this many keys, newest first. */
export const keysPageSize = 100

/** The rate-limit rules that apply to a key's calls besides the YAML defaults: its own and its workspace's. */
export interface KeyRules {
  readonly own: readonly RateLimitRule[]
  readonly workspace: readonly RateLimitRule[]
}

const ruleFields = (rule: RateLimitRule) => ({
  id: rule.id,
  model: rule.model,
  requests_per_minute: rule.requestsPerMinute,
  tokens_per_minute: rule.tokensPerMinute,
})

export function toApiKey(key: ApiKeyRecord, usage: KeyUsageFields, rules: KeyRules): ApiKey {
  return {
    hash: key.hash,
    name: key.name,
    label: key.label,
    disabled: key.disabled,
    created_at: key.createdAt,
    updated_at: key.updatedAt,
    expires_at: key.expiresAt,
    last_used_at: key.lastUsedAt,
    creator_user_id: key.creatorUserId,
    workspace_id: key.workspaceId,
    external_user: key.externalUser === null ? null : { user: key.externalUser },
    limit: key.limitUsd === null ? null : Number(key.limitUsd),
    limit_reset: key.limitReset,
    include_byok_in_limit: key.includeByokInLimit,
    ...usage,
    cache_enabled: key.responseCacheEnabled,
    cache_ttl_seconds: key.responseCacheTtlSeconds,
    rate_limits: rules.own.map(ruleFields),
    workspace_rate_limits: rules.workspace.map(ruleFields),
  }
}

function checkPartnerKey(apiKey: string): string {
  if (new Set(apiKey).size < 10) {
    throw new GatewayError(
      'invalid_request',
      'external.api_key has too little entropy: use a random string of at least 32 characters',
    )
  }
  return createHash('sha256').update(apiKey, 'utf8').digest('hex')
}

export function createKeysService(deps: KeysServiceDeps) {
  return {
    create: (body: CreateKeyBody): Promise<{ data: ApiKey; key: string }> => createKey(deps, body),
    list: (query: ListKeysQuery): Promise<ApiKey[]> => listKeys(deps, query),
    get: (hash: string): Promise<ApiKey> => getKey(deps, hash),
    update: (hash: string, body: UpdateKeyBody): Promise<ApiKey> => updateKey(deps, hash, body),
    delete: (hash: string): Promise<{ deleted: true }> => deleteKey(deps, hash),
    current: (key: ApiKeyRecord): Promise<CurrentKey> => describeCurrentKey(deps, key),
  }
}

async function present(deps: KeysServiceDeps, keys: readonly ApiKeyRecord[]): Promise<ApiKey[]> {
  const usage = await readKeysUsage(deps.counters, keys, deps.clock)
  return keys.map((key) =>
    toApiKey(key, usage.get(key.hash)!, {
      own: deps.rateLimits.rulesOf(key.hash),
      workspace: deps.rateLimits.workspaceRulesOf(key.workspaceId),
    }),
  )
}

async function resolveWorkspace(deps: KeysServiceDeps, idOrSlug: string | undefined): Promise<string> {
  if (idOrSlug === undefined) return deps.defaultWorkspaceId
  const workspace = await deps.organizations.findWorkspace(idOrSlug)
  if (workspace === undefined || workspace.organization_id !== deps.organizationId) {
    throw new GatewayError(
      'invalid_request',
      `workspace_id "${idOrSlug}" does not match any workspace: omit it for the default workspace or pass an existing workspace id`,
    )
  }
  return workspace.id
}

async function resolveCreator(deps: KeysServiceDeps, userId: string | null | undefined): Promise<string> {
  if (userId === undefined || userId === null) return deps.ownerUserId
  const user = await deps.organizations.findUser(userId)
  if (user === undefined || user.organization_id !== deps.organizationId) {
    throw new GatewayError(
      'invalid_request',
      `creator_user_id "${userId}" is not a member of this organization: omit it or pass a user_id from GET /api/v1/organization/members`,
    )
  }
  return user.id
}

async function findKey(deps: KeysServiceDeps, hash: string): Promise<ApiKeyRecord> {
  const key = await deps.apiKeys.findByHash(hash)
  if (key === undefined) throw new GatewayError('not_found', `No API key with hash ${hash}`)
  return key
}

async function createKey(deps: KeysServiceDeps, body: CreateKeyBody): Promise<{ data: ApiKey; key: string }> {
  const now = deps.clock.now()
  const expiresAt = body.expires_at == null ? null : parseExpiresAt(body.expires_at, now)
  const externalApiKeyHash = body.external?.api_key === undefined ? null : checkPartnerKey(body.external.api_key)
  checkResponseCacheTtl(body.cache_ttl_seconds, deps.maxCacheTtlSeconds)
  const workspaceId = await resolveWorkspace(deps, body.workspace_id)
  const creatorUserId = await resolveCreator(deps, body.creator_user_id)
  const plaintext = generateKeySecret()
  const record = await deps.apiKeys.insert({
    hash: hashKeySecret(plaintext),
    kind: 'inference',
    name: body.name,
    label: labelKeySecret(plaintext),
    organizationId: deps.organizationId,
    workspaceId,
    creatorUserId,
    expiresAt,
    limitUsd: body.limit == null ? null : String(body.limit),
    limitReset: body.limit_reset ?? null,
    includeByokInLimit: body.include_byok_in_limit ?? false,
    externalUser: body.external?.user ?? null,
    externalApiKeyHash,
    responseCacheEnabled: body.cache_enabled ?? null,
    responseCacheTtlSeconds: body.cache_ttl_seconds ?? null,
    createdAt: now.toISOString(),
  })
  deps.bus.publish('api_key', record.hash)
  const [data] = await present(deps, [record])
  return { data: data!, key: plaintext }
}

async function listKeys(deps: KeysServiceDeps, query: ListKeysQuery): Promise<ApiKey[]> {
  const workspaceId = await resolveWorkspace(deps, query.workspace_id)
  const keys = await deps.apiKeys.list({
    workspaceId,
    includeDisabled: query.include_disabled ?? false,
    kinds: ['inference', 'intern'],
    offset: query.offset ?? 0,
    limit: keysPageSize,
  })
  return present(deps, keys)
}

async function getKey(deps: KeysServiceDeps, hash: string): Promise<ApiKey> {
  const [data] = await present(deps, [await findKey(deps, hash)])
  return data!
}

async function updateKey(deps: KeysServiceDeps, hash: string, body: UpdateKeyBody): Promise<ApiKey> {
  checkResponseCacheTtl(body.cache_ttl_seconds, deps.maxCacheTtlSeconds)
  const existing = await findKey(deps, hash)
  const changes: { -readonly [K in keyof ApiKeyChanges]: ApiKeyChanges[K] } = {}
  if (body.name !== undefined) changes.name = body.name
  if (body.disabled !== undefined) changes.disabled = body.disabled
  if (body.limit !== undefined) changes.limitUsd = body.limit === null ? null : String(body.limit)
  if (body.limit_reset !== undefined) changes.limitReset = body.limit_reset
  if (body.include_byok_in_limit !== undefined) changes.includeByokInLimit = body.include_byok_in_limit
  if (body.cache_enabled !== undefined) changes.responseCacheEnabled = body.cache_enabled
  if (body.cache_ttl_seconds !== undefined) changes.responseCacheTtlSeconds = body.cache_ttl_seconds
  if (Object.keys(changes).length === 0) return getKey(deps, existing.hash)
  const updated = await deps.apiKeys.update(hash, changes, deps.clock.now().toISOString())
  deps.bus.publish('api_key', hash)
  if (updated === undefined) throw new GatewayError('not_found', `No API key with hash ${hash}`)
  const [data] = await present(deps, [updated])
  return data!
}

async function deleteKey(deps: KeysServiceDeps, hash: string): Promise<{ deleted: true }> {
  const deleted = await deps.apiKeys.delete(hash)
  deps.bus.publish('api_key', hash)
  if (!deleted) throw new GatewayError('not_found', `No API key with hash ${hash}`)
  await deps.rateLimits.deleteRulesOf(hash)
  return { deleted: true }
}

async function describeCurrentKey(deps: KeysServiceDeps, key: ApiKeyRecord): Promise<CurrentKey> {
  const usage = await readKeysUsage(deps.counters, [key], deps.clock)
  const workspace = await deps.organizations.findWorkspace(key.workspaceId)
  return toCurrentKey(key, usage.get(key.hash)!, workspace === undefined ? null : workspace.id)
}

export type KeysService = ReturnType<typeof createKeysService>
