// Which keys and members hold which guardrail. A key (and a member) holds at most one guardrail: the
// unique columns enforce it, and assigning replaces the previous assignment in one transaction.
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../database.ts'

export interface KeyAssignmentRow {
  readonly id: string
  readonly guardrail_id: string
  readonly key_hash: string
  readonly key_name: string
  readonly key_label: string
  readonly assigned_by: string | null
  readonly created_at: string
}

export interface MemberAssignmentRow {
  readonly id: string
  readonly guardrail_id: string
  readonly user_id: string
  readonly organization_id: string
  readonly assigned_by: string | null
  readonly created_at: string
}

export interface AssignmentResult {
  /** Keys or members newly assigned to the guardrail (already assigned ones are not counted). */
  readonly assignedCount: number
  /** Guardrails that lost an assignment to this one. */
  readonly previousGuardrailIds: string[]
}

interface Page {
  readonly guardrailId?: string
  readonly offset: number
  readonly limit: number
}

export function createGuardrailAssignmentsRepository(db: Kysely<Database>) {
  return {
    assignKeys: (guardrailId: string, keyHashes: readonly string[], assignedBy: string | null, now: string) =>
      assignKeys(db, guardrailId, keyHashes, assignedBy, now),
    findKeys: (keyHashes: readonly string[]) => findKeys(db, keyHashes),
    unassignKeys: (guardrailId: string, keyHashes: readonly string[]) => unassignKeys(db, guardrailId, keyHashes),
    listKeyAssignments: (page: Page) => listKeyAssignments(db, page),
    assignMembers: (
      guardrailId: string,
      organizationId: string,
      userIds: readonly string[],
      assignedBy: string | null,
      now: string,
    ) => assignMembers(db, guardrailId, organizationId, userIds, assignedBy, now),
    unassignMembers: (guardrailId: string, userIds: readonly string[]) => unassignMembers(db, guardrailId, userIds),
    listMemberAssignments: (page: Page) => listMemberAssignments(db, page),
    holders: (guardrailId?: string) => findHolders(db, guardrailId),
  }
}

export type GuardrailAssignmentsRepository = ReturnType<typeof createGuardrailAssignmentsRepository>

async function assignKeys(
  db: Kysely<Database>,
  guardrailId: string,
  keyHashes: readonly string[],
  assignedBy: string | null,
  now: string,
): Promise<AssignmentResult> {
  return db.transaction().execute(async (transaction) => {
    const existing = await transaction
      .selectFrom('guardrail_key_assignments')
      .select(['key_hash', 'guardrail_id'])
      .where('key_hash', 'in', [...keyHashes])
      .execute()
    const already = new Set(existing.filter((row) => row.guardrail_id === guardrailId).map((row) => row.key_hash))
    const moving = existing.filter((row) => row.guardrail_id !== guardrailId)
    const fresh = keyHashes.filter((hash) => !already.has(hash))
    if (fresh.length === 0) return { assignedCount: 0, previousGuardrailIds: [] }
    await transaction.deleteFrom('guardrail_key_assignments').where('key_hash', 'in', fresh).execute()
    await transaction
      .insertInto('guardrail_key_assignments')
      .values(
        fresh.map((hash) => ({
          id: randomUUID(),
          guardrail_id: guardrailId,
          key_hash: hash,
          assigned_by: assignedBy,
          created_at: now,
        })),
      )
      .execute()
    return {
      assignedCount: fresh.length,
      previousGuardrailIds: [...new Set(moving.map((row) => row.guardrail_id))],
    }
  })
}

async function findKeys(
  db: Kysely<Database>,
  keyHashes: readonly string[],
): Promise<{ hash: string; workspace_id: string }[]> {
  return db
    .selectFrom('api_keys')
    .select(['hash', 'workspace_id'])
    .where('hash', 'in', [...keyHashes])
    .execute()
}

async function unassignKeys(db: Kysely<Database>, guardrailId: string, keyHashes: readonly string[]): Promise<number> {
  const result = await db
    .deleteFrom('guardrail_key_assignments')
    .where('guardrail_id', '=', guardrailId)
    .where('key_hash', 'in', [...keyHashes])
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

async function listKeyAssignments(
  db: Kysely<Database>,
  page: Page,
): Promise<{ rows: KeyAssignmentRow[]; total: number }> {
  let select = db
    .selectFrom('guardrail_key_assignments as assignment')
    .innerJoin('api_keys as key', 'key.hash', 'assignment.key_hash')
  if (page.guardrailId !== undefined) select = select.where('assignment.guardrail_id', '=', page.guardrailId)
  const rows = await select
    .select([
      'assignment.id',
      'assignment.guardrail_id',
      'assignment.key_hash',
      'key.name as key_name',
      'key.label as key_label',
      'assignment.assigned_by',
      'assignment.created_at',
    ])
    .orderBy('assignment.created_at')
    .orderBy('assignment.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  const count = await select
    .select((builder) => builder.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.count) }
}

async function assignMembers(
  db: Kysely<Database>,
  guardrailId: string,
  organizationId: string,
  userIds: readonly string[],
  assignedBy: string | null,
  now: string,
): Promise<AssignmentResult> {
  return db.transaction().execute(async (transaction) => {
    const existing = await transaction
      .selectFrom('guardrail_member_assignments')
      .select(['user_id', 'guardrail_id'])
      .where('user_id', 'in', [...userIds])
      .execute()
    const already = new Set(existing.filter((row) => row.guardrail_id === guardrailId).map((row) => row.user_id))
    const moving = existing.filter((row) => row.guardrail_id !== guardrailId)
    const fresh = userIds.filter((userId) => !already.has(userId))
    if (fresh.length === 0) return { assignedCount: 0, previousGuardrailIds: [] }
    await transaction.deleteFrom('guardrail_member_assignments').where('user_id', 'in', fresh).execute()
    await transaction
      .insertInto('guardrail_member_assignments')
      .values(
        fresh.map((userId) => ({
          id: randomUUID(),
          guardrail_id: guardrailId,
          user_id: userId,
          organization_id: organizationId,
          assigned_by: assignedBy,
          created_at: now,
        })),
      )
      .execute()
    return {
      assignedCount: fresh.length,
      previousGuardrailIds: [...new Set(moving.map((row) => row.guardrail_id))],
    }
  })
}

async function unassignMembers(db: Kysely<Database>, guardrailId: string, userIds: readonly string[]): Promise<number> {
  const result = await db
    .deleteFrom('guardrail_member_assignments')
    .where('guardrail_id', '=', guardrailId)
    .where('user_id', 'in', [...userIds])
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

async function listMemberAssignments(
  db: Kysely<Database>,
  page: Page,
): Promise<{ rows: MemberAssignmentRow[]; total: number }> {
  let select = db.selectFrom('guardrail_member_assignments')
  if (page.guardrailId !== undefined) select = select.where('guardrail_id', '=', page.guardrailId)
  const rows = await select
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  const count = await select
    .select((builder) => builder.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.count) }
}

/** Key hashes and user ids holding the guardrail (every one when no id is given), for the cache. */
async function findHolders(
  db: Kysely<Database>,
  guardrailId?: string,
): Promise<{
  keys: { guardrail_id: string; key_hash: string }[]
  members: { guardrail_id: string; user_id: string }[]
}> {
  let keys = db.selectFrom('guardrail_key_assignments').select(['guardrail_id', 'key_hash'])
  let members = db.selectFrom('guardrail_member_assignments').select(['guardrail_id', 'user_id'])
  if (guardrailId !== undefined) {
    keys = keys.where('guardrail_id', '=', guardrailId)
    members = members.where('guardrail_id', '=', guardrailId)
  }
  return { keys: await keys.execute(), members: await members.execute() }
}
