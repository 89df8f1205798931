// The organization that owns this deployment, its users and its workspaces' identity rows.
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database, OrganizationTable, UserTable, WorkspaceTable } from '../database.ts'

export type OrganizationRow = Selectable<OrganizationTable>
export type UserRow = Selectable<UserTable>
export type WorkspaceRow = Selectable<WorkspaceTable>

type Executor = Kysely<Database> | Transaction<Database>

export interface NewWorkspace {
  readonly id: string
  readonly organizationId: string
  readonly name: string
  readonly slug: string
  readonly isDefault: boolean
  readonly createdBy: string | null
  readonly createdAt: string
}

/** A workspace row with every setting at its default (IO logging on for the default workspace only). */
export function newWorkspaceRow(workspace: NewWorkspace): WorkspaceRow {
  return {
    id: workspace.id,
    organization_id: workspace.organizationId,
    name: workspace.name,
    slug: workspace.slug,
    description: null,
    is_default: workspace.isDefault ? 1 : 0,
    created_by: workspace.createdBy,
    default_image_model: null,
    default_text_model: null,
    default_provider_sort: null,
    disabled_server_tools: null,
    include_byok_in_budgets: 0,
    io_logging_api_key_ids: null,
    io_logging_sampling_rate: 1,
    is_data_discount_logging_enabled: 0,
    is_observability_broadcast_enabled: 0,
    is_observability_io_logging_enabled: workspace.isDefault ? 1 : 0,
    response_cache_enabled: null,
    response_cache_ttl_seconds: null,
    created_at: workspace.createdAt,
    updated_at: null,
  }
}

export function createOrganizationsRepository(db: Kysely<Database>) {
  return {
    findOrganization: (executor: Executor = db) => findOrganization(executor),
    insertOrganization: (row: OrganizationRow, executor: Executor = db) => insertOrganization(executor, row),
    insertUser: (row: UserRow, executor: Executor = db) => insertUser(executor, row),
    findUserByEmail: (email: string) => findUserByEmail(db, email),
    findUser: (id: string) => findUser(db, id),
    listUsers: (organizationId: string, offset: number, limit: number) => listUsers(db, organizationId, offset, limit),
    insertWorkspace: (workspace: NewWorkspace, executor: Executor = db) => insertWorkspace(executor, workspace),
    findDefaultWorkspace: (organizationId: string) => findDefaultWorkspace(db, organizationId),
    findWorkspace: (idOrSlug: string) => findWorkspace(db, idOrSlug),
  }
}

export type OrganizationsRepository = ReturnType<typeof createOrganizationsRepository>

async function findOrganization(executor: Executor): Promise<OrganizationRow | undefined> {
  return executor.selectFrom('organizations').selectAll().orderBy('created_at').limit(1).executeTakeFirst()
}

async function insertOrganization(executor: Executor, row: OrganizationRow): Promise<void> {
  await executor.insertInto('organizations').values(row).execute()
}

async function insertUser(executor: Executor, row: UserRow): Promise<void> {
  await executor.insertInto('users').values(row).execute()
}

async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()
}

async function findUser(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}

async function listUsers(
  db: Kysely<Database>,
  organizationId: string,
  offset: number,
  limit: number,
): Promise<{ rows: UserRow[]; total: number }> {
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute()
  const count = await db
    .selectFrom('users')
    .select((builder) => builder.fn.countAll<number | string>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.count) }
}

async function insertWorkspace(executor: Executor, workspace: NewWorkspace): Promise<void> {
  await executor.insertInto('workspaces').values(newWorkspaceRow(workspace)).execute()
}

async function findDefaultWorkspace(db: Kysely<Database>, organizationId: string): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('is_default', '=', 1)
    .executeTakeFirst()
}

async function findWorkspace(db: Kysely<Database>, idOrSlug: string): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where((builder) => builder.or([builder('id', '=', idOrSlug), builder('slug', '=', idOrSlug)]))
    .executeTakeFirst()
}
