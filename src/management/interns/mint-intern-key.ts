// POST /interns/{internId}/keys (management key): mints an API key of kind `intern` confined to one
// intern, the key its runtime uses. The plaintext is returned once; only its SHA-256 is stored.
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { ChangeBus } from '../../events/change-bus.ts'
import { generateKeySecret, hashKeySecret, labelKeySecret } from '../../identity/api-key-secret.ts'
import type { ApiKeysRepository } from '../../store/repositories/api-keys-repository.ts'
import type { InternsRepository } from '../../store/repositories/interns-repository.ts'

export interface MintInternKeyDeps {
  readonly interns: InternsRepository
  readonly apiKeys: ApiKeysRepository
  readonly changeBus: ChangeBus
  readonly clock: Clock
  readonly isInProgramme: (workspaceId: string) => Promise<boolean>
}

export function toApiKeyObject(key: ApiKeyRecord) {
  return {
    hash: key.hash,
    name: key.name,
    label: key.label,
    disabled: key.disabled,
    limit: key.limitUsd === null ? null : Number(key.limitUsd),
    limit_remaining: key.limitUsd === null ? null : Number(key.limitUsd),
    limit_reset: key.limitReset,
    include_byok_in_limit: key.includeByokInLimit,
    usage: 0,
    usage_daily: 0,
    usage_weekly: 0,
    usage_monthly: 0,
    byok_usage: 0,
    byok_usage_daily: 0,
    byok_usage_weekly: 0,
    byok_usage_monthly: 0,
    created_at: key.createdAt,
    updated_at: key.updatedAt,
    expires_at: key.expiresAt,
    creator_user_id: key.creatorUserId,
    external_user: key.externalUser,
    workspace_id: key.workspaceId,
    intern_id: key.internId,
    last_used_at: key.lastUsedAt,
  }
}

export async function mintInternKey(
  deps: MintInternKeyDeps,
  caller: ApiKeyRecord,
  internId: string,
  name: string | undefined,
) {
  const intern = await deps.interns.findById(internId)
  if (intern === undefined || !(await deps.isInProgramme(intern.workspace_id))) {
    throw new GatewayError('not_found', `No intern ${internId} in the Intern API programme`)
  }
  if (intern.status === 'destroying' || intern.status === 'destroy_failed') {
    throw new GatewayError(
      'conflict',
      `The intern is ${intern.status}; keys can only be minted for interns that are not being deleted`,
    )
  }
  const plaintext = generateKeySecret()
  const key = await deps.apiKeys.insert({
    hash: hashKeySecret(plaintext),
    kind: 'intern',
    name: name ?? `Intern ${intern.name} key`,
    label: labelKeySecret(plaintext),
    organizationId: caller.organizationId,
    workspaceId: intern.workspace_id,
    internId: intern.id,
    creatorUserId: caller.creatorUserId,
    createdAt: deps.clock.now().toISOString(),
  })
  deps.changeBus.publish('api_key', key.hash)
  return { data: toApiKeyObject(key), key: plaintext }
}
