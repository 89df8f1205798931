// Workspaces, their explicit members and their budgets.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely'
import type { Database, UserTable, WorkspaceMemberTable, WorkspaceTable } from '../database.ts'
import type { WorkspaceBudgetTable } from '../tables/workspaces-guardrails-tables.ts'

export type WorkspaceRow = Selectable<WorkspaceTable>
export type WorkspaceMemberRow = Selectable<WorkspaceMemberTable>
export type WorkspaceBudgetRow = Selectable<WorkspaceBudgetTable>
export type UserRow = Selectable<UserTable>

export interface WorkspaceDeletion {
  /** Guardrails deleted with the workspace. */
  readonly guardrailIds: string[]
  /** Keys moved to the new default workspace or deleted (disabled keys of the deleted workspace). */
  readonly keyHashes: string[]
  /** The workspace that became the default, when the default one was deleted. */
  readonly newDefaultWorkspaceId: string | null
}

export function createWorkspacesRepository(db: Kysely<Database>) {
  return {
    list: (organizationId: string, offset: number, limit: number) => listWorkspaces(db, organizationId, offset, limit),
    listAll: () => listAllWorkspaces(db),
    find: (idOrSlug: string) => findWorkspace(db, idOrSlug),
    findDefault: (organizationId: string) => findDefaultWorkspace(db, organizationId),
    findBySlug: (slug: string) => findWorkspaceBySlug(db, slug),
    insert: (row: Insertable<WorkspaceTable>) => insertWorkspace(db, row),
    update: (id: string, values: Updateable<WorkspaceTable>) => updateWorkspace(db, id, values),
    countActiveKeys: (workspaceId: string) => countActiveKeys(db, workspaceId),
    delete: (workspace: WorkspaceRow, successorId: string | null) => deleteWorkspace(db, workspace, successorId),
    findUsers: (organizationId: string, userIds: readonly string[]) => findUsers(db, organizationId, userIds),
    listUsers: (organizationId: string, offset: number, limit: number) => listUsers(db, organizationId, offset, limit),
    listMembers: (workspaceId: string, offset: number, limit: number) => listMembers(db, workspaceId, offset, limit),
    findMembers: (workspaceId: string, userIds: readonly string[]) => findMembers(db, workspaceId, userIds),
    insertMembers: (rows: readonly WorkspaceMemberRow[]) => insertMembers(db, rows),
    deleteMembers: (workspaceId: string, userIds: readonly string[]) => deleteMembers(db, workspaceId, userIds),
    findKeyOwners: (workspaceId: string, userIds: readonly string[]) => findKeyOwners(db, workspaceId, userIds),
    listBudgets: (workspaceId?: string) => listBudgets(db, workspaceId),
    upsertBudget: (budget: WorkspaceBudgetRow, includeByok: boolean | undefined) =>
      upsertBudget(db, budget, includeByok),
    deleteBudget: (workspaceId: string, interval: string) => deleteBudget(db, workspaceId, interval),
  }
}

export type WorkspacesRepository = ReturnType<typeof createWorkspacesRepository>

async function listWorkspaces(
  db: Kysely<Database>,
  organizationId: string,
  offset: number,
  limit: number,
): Promise<{ rows: WorkspaceRow[]; total: number }> {
  const select = db.selectFrom('workspaces').where('organization_id', '=', organizationId)
  const rows = await select.selectAll().orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute()
  const count = await select
    .select((builder) => builder.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.count) }
}

async function listAllWorkspaces(db: Kysely<Database>): Promise<WorkspaceRow[]> {
  return db.selectFrom('workspaces').selectAll().execute()
}

async function findWorkspace(db: Kysely<Database>, idOrSlug: string): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where((builder) => builder.or([builder('id', '=', idOrSlug), builder('slug', '=', idOrSlug)]))
    .orderBy('id')
    .executeTakeFirst()
}

async function findDefaultWorkspace(db: Kysely<Database>, organizationId: string): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('is_default', '=', 1)
    .executeTakeFirst()
}

async function findWorkspaceBySlug(db: Kysely<Database>, slug: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('slug', '=', slug).executeTakeFirst()
}

async function insertWorkspace(db: Kysely<Database>, row: Insertable<WorkspaceTable>): Promise<void> {
  await db.insertInto('workspaces').values(row).execute()
}

async function updateWorkspace(db: Kysely<Database>, id: string, values: Updateable<WorkspaceTable>): Promise<void> {
  await db.updateTable('workspaces').set(values).where('id', '=', id).execute()
}

async function countActiveKeys(db: Kysely<Database>, workspaceId: string): Promise<number> {
  const count = await db
    .selectFrom('api_keys')
    .select((builder) => builder.fn.countAll<number | string>().as('count'))
    .where('workspace_id', '=', workspaceId)
    .where('disabled', '=', 0)
    .where('kind', '!=', 'management')
    .executeTakeFirstOrThrow()
  return Number(count.count)
}

/**
 * Deletes a workspace with its budgets, guardrails and members. Its disabled keys are deleted; its
 * management keys move to `successorId`, which becomes the default when the deleted one was.
 */
async function deleteWorkspace(
  db: Kysely<Database>,
  workspace: WorkspaceRow,
  successorId: string | null,
): Promise<WorkspaceDeletion> {
  return db.transaction().execute(async (transaction) => {
    const guardrails = await transaction
      .selectFrom('guardrails')
      .select('id')
      .where('workspace_id', '=', workspace.id)
      .execute()
    const keys = await transaction
      .selectFrom('api_keys')
      .select(['hash', 'kind'])
      .where('workspace_id', '=', workspace.id)
      .execute()
    if (successorId !== null) {
      await transaction
        .updateTable('api_keys')
        .set({ workspace_id: successorId })
        .where('workspace_id', '=', workspace.id)
        .where('kind', '=', 'management')
        .execute()
      if (workspace.is_default === 1)
        await transaction.updateTable('workspaces').set({ is_default: 1 }).where('id', '=', successorId).execute()
    }
    await transaction.deleteFrom('api_keys').where('workspace_id', '=', workspace.id).execute()
    await transaction.deleteFrom('workspaces').where('id', '=', workspace.id).execute()
    return {
      guardrailIds: guardrails.map((row) => row.id),
      keyHashes: keys.map((row) => row.hash),
      newDefaultWorkspaceId: workspace.is_default === 1 ? successorId : null,
    }
  })
}

async function findUsers(db: Kysely<Database>, organizationId: string, userIds: readonly string[]): Promise<UserRow[]> {
  if (userIds.length === 0) return []
  return db
    .selectFrom('users')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', 'in', [...userIds])
    .execute()
}

async function listUsers(
  db: Kysely<Database>,
  organizationId: string,
  offset: number,
  limit: number,
): Promise<{ rows: UserRow[]; total: number }> {
  const select = db.selectFrom('users').where('organization_id', '=', organizationId)
  const rows = await select.selectAll().orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute()
  const count = await select
    .select((builder) => builder.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.count) }
}

async function listMembers(
  db: Kysely<Database>,
  workspaceId: string,
  offset: number,
  limit: number,
): Promise<{ rows: WorkspaceMemberRow[]; total: number }> {
  const select = db.selectFrom('workspace_members').where('workspace_id', '=', workspaceId)
  const rows = await select.selectAll().orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute()
  const count = await select
    .select((builder) => builder.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.count) }
}

async function findMembers(
  db: Kysely<Database>,
  workspaceId: string,
  userIds: readonly string[],
): Promise<WorkspaceMemberRow[]> {
  return db
    .selectFrom('workspace_members')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('user_id', 'in', [...userIds])
    .execute()
}

async function insertMembers(db: Kysely<Database>, rows: readonly WorkspaceMemberRow[]): Promise<void> {
  if (rows.length === 0) return
  await db
    .insertInto('workspace_members')
    .values([...rows])
    .execute()
}

async function deleteMembers(db: Kysely<Database>, workspaceId: string, userIds: readonly string[]): Promise<number> {
  const result = await db
    .deleteFrom('workspace_members')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', 'in', [...userIds])
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Creators among `userIds` of active (non-disabled) keys in the workspace. */
async function findKeyOwners(db: Kysely<Database>, workspaceId: string, userIds: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select('creator_user_id')
    .distinct()
    .where('workspace_id', '=', workspaceId)
    .where('disabled', '=', 0)
    .where('creator_user_id', 'in', [...userIds])
    .execute()
  return rows.flatMap((row) => (row.creator_user_id === null ? [] : [row.creator_user_id]))
}

async function listBudgets(db: Kysely<Database>, workspaceId?: string): Promise<WorkspaceBudgetRow[]> {
  let select = db.selectFrom('workspace_budgets').selectAll()
  if (workspaceId !== undefined) select = select.where('workspace_id', '=', workspaceId)
  return select.orderBy('created_at').orderBy('id').execute()
}

/** Writes the budget and the workspace-wide BYOK flag together. */
async function upsertBudget(
  db: Kysely<Database>,
  budget: WorkspaceBudgetRow,
  includeByok: boolean | undefined,
): Promise<void> {
  await db.transaction().execute(async (transaction) => {
    const updated = await transaction
      .updateTable('workspace_budgets')
      .set({ limit_usd: budget.limit_usd, updated_at: budget.updated_at })
      .where('workspace_id', '=', budget.workspace_id)
      .where('interval', '=', budget.interval)
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) === 0) await transaction.insertInto('workspace_budgets').values(budget).execute()
    if (includeByok !== undefined) {
      await transaction
        .updateTable('workspaces')
        .set({ include_byok_in_budgets: includeByok ? 1 : 0 })
        .where('id', '=', budget.workspace_id)
        .execute()
    }
  })
}

async function deleteBudget(db: Kysely<Database>, workspaceId: string, interval: string): Promise<void> {
  await db
    .deleteFrom('workspace_budgets')
    .where('workspace_id', '=', workspaceId)
    .where('interval', '=', interval)
    .execute()
}
