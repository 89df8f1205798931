// First start on an empty store: the organization, its owner, the default workspace and a management
// key. Runs at every start; does nothing when all of that exists. SWITCHYARD_ADMIN_KEY, when given, is
// created as a management key if no key has its hash (idempotent).
import { randomUUID } from 'node:crypto'
import type { Clock } from '../domain/clock.ts'
import type { Store } from '../store/open-store.ts'
import { createOrganizationsRepository } from '../store/repositories/organizations-repository.ts'
import { createApiKeysRepository } from '../store/repositories/api-keys-repository.ts'
import { generateKeySecret, hashKeySecret, labelKeySecret } from './api-key-secret.ts'

export interface BootstrapResult {
  readonly organizationId: string
  readonly defaultWorkspaceId: string
  readonly ownerUserId: string
  /** Plaintext of a management key created by this start, to print once; null when none was created. */
  readonly createdManagementKey: string | null
  readonly adminKeyCreated: boolean
}

export async function bootstrapIdentity(store: Store, clock: Clock, adminKey: string | null): Promise<BootstrapResult> {
  const organizations = createOrganizationsRepository(store.db)
  const keys = createApiKeysRepository(store.db)
  const existing = await organizations.findOrganization()
  const created = existing === undefined ? await createOrganization(store, clock) : null
  const organizationId = existing?.id ?? created!.organizationId
  const workspace = await organizations.findDefaultWorkspace(organizationId)
  if (workspace === undefined) throw new Error('the store has an organization but no default workspace')
  const owner = await store.db
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'owner')
    .executeTakeFirst()
  const ownerUserId = owner?.id ?? created?.ownerUserId ?? ''

  let createdManagementKey: string | null = null
  let adminKeyCreated = false
  const now = clock.now().toISOString()
  const base = {
    kind: 'management' as const,
    organizationId,
    workspaceId: workspace.id,
    creatorUserId: ownerUserId,
    createdAt: now,
  }
  if (adminKey !== null) {
    const hash = hashKeySecret(adminKey)
    if ((await keys.findByHash(hash)) === undefined) {
      await keys.insert({ ...base, hash, name: 'Admin key (SWITCHYARD_ADMIN_KEY)', label: labelKeySecret(adminKey) })
      adminKeyCreated = true
    }
  } else if (created !== null) {
    const plaintext = generateKeySecret()
    await keys.insert({
      ...base,
      hash: hashKeySecret(plaintext),
      name: 'Initial management key',
      label: labelKeySecret(plaintext),
    })
    createdManagementKey = plaintext
  }
  return { organizationId, defaultWorkspaceId: workspace.id, ownerUserId, createdManagementKey, adminKeyCreated }
}

async function createOrganization(
  store: Store,
  clock: Clock,
): Promise<{ organizationId: string; ownerUserId: string }> {
  const organizations = createOrganizationsRepository(store.db)
  const now = clock.now().toISOString()
  const organizationId = randomUUID()
  const ownerUserId = randomUUID()
  await store.db.transaction().execute(async (transaction) => {
    await organizations.insertOrganization(
      { id: organizationId, name: 'Default organization', created_at: now },
      transaction,
    )
    await organizations.insertUser(
      {
        id: ownerUserId,
        organization_id: organizationId,
        email: 'owner@localhost',
        name: 'Owner',
        role: 'owner',
        created_at: now,
      },
      transaction,
    )
    await organizations.insertWorkspace(
      {
        id: randomUUID(),
        organizationId,
        name: 'Default Workspace',
        slug: 'default',
        isDefault: true,
        createdBy: ownerUserId,
        createdAt: now,
      },
      transaction,
    )
  })
  return { organizationId, ownerUserId }
}
