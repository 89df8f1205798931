// Intern rows and the idempotency records of intern creation.
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database } from '../database.ts'
import type { InternIdempotencyTable, InternTable } from '../tables/vault-interns-tables.ts'
import { PreparedQueryCache } from '../prepared-query.ts'

export type InternRow = Selectable<InternTable>
export type InternIdempotencyRow = Selectable<InternIdempotencyTable>
type Executor = Kysely<Database> | Transaction<Database>

export interface ListInternsQuery {
  readonly workspaceId: string
  readonly statuses: readonly string[] | null
  /** Rows strictly older than this position (newest-first order: created_at desc, id desc). */
  readonly after: { readonly createdAt: string; readonly id: string } | null
  readonly limit: number
}

export function createInternsRepository(db: Kysely<Database>) {
  const byStatus = new PreparedQueryCache<[], InternRow>(0)
  return {
    insert: (row: InternRow, executor: Executor = db) => insertIntern(executor, row),
    findById: (id: string, executor: Executor = db) => findInternById(executor, id),
    findByName: (workspaceId: string, name: string, executor: Executor = db) =>
      findInternByName(executor, workspaceId, name),
    findByVault: (vaultId: string) => findInternByVault(db, vaultId),
    list: (query: ListInternsQuery) => listInterns(db, query),
    listByStatus: (statuses: readonly string[]) => listInternsByStatus(db, byStatus, statuses),
    delete: (id: string, executor: Executor = db) => deleteIntern(executor, id),
    update: (
      id: string,
      values: Partial<Omit<InternRow, 'id' | 'workspace_id' | 'created_at'>>,
      executor: Executor = db,
    ) => updateIntern(executor, id, values),
    findIdempotency: (workspaceId: string, key: string, executor: Executor = db) =>
      findIdempotency(executor, workspaceId, key),
    insertIdempotency: (row: InternIdempotencyRow, executor: Executor = db) => insertIdempotency(executor, row),
  }
}

export type InternsRepository = ReturnType<typeof createInternsRepository>

async function insertIntern(executor: Executor, row: InternRow): Promise<void> {
  await executor.insertInto('interns').values(row).execute()
}

async function findInternById(executor: Executor, id: string): Promise<InternRow | undefined> {
  return executor.selectFrom('interns').selectAll().where('id', '=', id).executeTakeFirst()
}

async function findInternByName(executor: Executor, workspaceId: string, name: string): Promise<InternRow | undefined> {
  return executor
    .selectFrom('interns')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .executeTakeFirst()
}

async function findInternByVault(db: Kysely<Database>, vaultId: string): Promise<InternRow | undefined> {
  return db.selectFrom('interns').selectAll().where('vault_id', '=', vaultId).executeTakeFirst()
}

async function listInterns(db: Kysely<Database>, query: ListInternsQuery): Promise<InternRow[]> {
  let select = db.selectFrom('interns').selectAll().where('workspace_id', '=', query.workspaceId)
  if (query.statuses !== null) select = select.where('status', 'in', [...query.statuses])
  const after = query.after
  if (after !== null) {
    select = select.where((builder) =>
      builder.or([
        builder('created_at', '<', after.createdAt),
        builder.and([builder('created_at', '=', after.createdAt), builder('id', '<', after.id)]),
      ]),
    )
  }
  return select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute()
}

/** Interns in any workspace with one of `statuses` (the intern runtime's work queue). */
/** The intern runtime polls this five times a second with the same statuses: prepared once per list. */
async function listInternsByStatus(
  db: Kysely<Database>,
  prepared: PreparedQueryCache<[], InternRow>,
  statuses: readonly string[],
): Promise<InternRow[]> {
  const query = prepared.get(statuses.join(','), () =>
    db
      .selectFrom('interns')
      .selectAll()
      .where('status', 'in', [...statuses])
      .orderBy('created_at')
      .orderBy('id'),
  )
  return (await db.executeQuery(query.compiled())).rows
}

async function deleteIntern(executor: Executor, id: string): Promise<void> {
  await executor.deleteFrom('interns').where('id', '=', id).execute()
}

async function updateIntern(
  executor: Executor,
  id: string,
  values: Partial<Omit<InternRow, 'id' | 'workspace_id' | 'created_at'>>,
): Promise<void> {
  await executor.updateTable('interns').set(values).where('id', '=', id).execute()
}

async function findIdempotency(
  executor: Executor,
  workspaceId: string,
  key: string,
): Promise<InternIdempotencyRow | undefined> {
  return executor
    .selectFrom('intern_idempotency')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst()
}

async function insertIdempotency(executor: Executor, row: InternIdempotencyRow): Promise<void> {
  await executor.insertInto('intern_idempotency').values(row).execute()
}
