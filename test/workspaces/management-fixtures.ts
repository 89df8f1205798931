// Shared by the workspace and guardrail suites: the engines to run on, and ways to create keys and
// organization members in a running test gateway.
import { createApiKeysRepository } from '../../src/store/repositories/api-keys-repository.ts'
import { generateKeySecret, hashKeySecret, labelKeySecret } from '../../src/identity/api-key-secret.ts'
import type { ApiKeyKind } from '../../src/domain/identity.ts'
import type { WorkspaceCache } from '../../src/workspaces/workspace-cache.ts'
import { postgresTarget } from '../support/test-services.ts'
import { bearer, startTestGateway, type TestGateway } from '../support/test-gateway.ts'

const postgres = postgresTarget()
/** `start(yaml)` starts a gateway on the engine, with that switchyard.yaml when given. */
export const engines: { name: string; skip: string | false; start: (yaml?: string) => Promise<TestGateway> }[] = [
  { name: 'sqlite', skip: false, start: (yaml) => startTestGateway(yaml === undefined ? {} : { yaml }) },
  {
    name: 'postgres',
    skip: postgres.skip,
    start: (yaml) => startTestGateway({ postgresUrl: postgres.url!, ...(yaml === undefined ? {} : { yaml }) }),
  },
]

export interface MintedKey {
  readonly plaintext: string
  readonly hash: string
}

export async function mintKey(
  gateway: TestGateway,
  options: {
    kind?: ApiKeyKind
    workspaceId?: string
    creatorUserId?: string | null
    name?: string
    expiresAt?: string | null
  } = {},
): Promise<MintedKey> {
  const plaintext = generateKeySecret()
  const hash = hashKeySecret(plaintext)
  await createApiKeysRepository(gateway.store.db).insert({
    hash,
    kind: options.kind ?? 'inference',
    name: options.name ?? 'test key',
    label: labelKeySecret(plaintext),
    organizationId: gateway.gateway.bootstrap.organizationId,
    workspaceId: options.workspaceId ?? gateway.gateway.bootstrap.defaultWorkspaceId,
    creatorUserId: options.creatorUserId ?? null,
    createdAt: new Date().toISOString(),
    expiresAt: options.expiresAt ?? null,
  })
  return { plaintext, hash }
}

export async function disableKey(gateway: TestGateway, hash: string): Promise<void> {
  const response = await gateway.inject({
    method: 'PATCH',
    url: `/api/v1/keys/${hash}`,
    headers: bearer(gateway.adminKey),
    payload: { disabled: true },
  })
  if (response.statusCode !== 200) throw new Error(`could not disable key ${hash}: ${response.body}`)
}

/** The workspaces as inference sees them; read after `drained()`, which settles the caches. */
export function cachedWorkspaces(gateway: TestGateway): WorkspaceCache {
  // internals: the workspace cache is what inference reads; the API shows only the store.
  return gateway.internals.caches.workspaces
}

/** Adds an organization member through the API and returns its user id. */
export async function addOrganizationMember(
  gateway: TestGateway,
  email: string,
  role: 'admin' | 'member' = 'member',
): Promise<string> {
  const response = await gateway.inject({
    method: 'POST',
    url: '/api/v1/organization/members',
    headers: bearer(gateway.adminKey),
    payload: { email, role },
  })
  if (response.statusCode !== 201) throw new Error(`could not add member: ${response.body}`)
  return (response.json() as { data: { user_id: string } }).data.user_id
}

/** Calls a management route with the admin key. */
export function call(
  gateway: TestGateway,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return gateway.inject({
    method,
    url,
    headers: bearer(gateway.adminKey),
    ...(payload === undefined ? {} : { payload: payload as object }),
  })
}

export function errorMessage(response: { json(): unknown }): string {
  return (response.json() as { error: { message: string } }).error.message
}
