// Rate-limit rule rows. A rule for every model is stored with model '' so that the unique constraint
// (scope, target, model) holds on both engines.
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../database.ts'
import type { RateLimitRuleTable } from '../tables/rate-limit-tables.ts'
import type { RateLimitRule, RateLimitScope } from '../../domain/rate-limit-rule.ts'

function toRule(row: Selectable<RateLimitRuleTable>): RateLimitRule {
  return {
    id: row.id,
    organizationId: row.organization_id,
    workspaceId: row.workspace_id,
    scope: row.scope as RateLimitScope,
    target: row.target,
    model: row.model === '' ? null : row.model,
    requestsPerMinute: row.requests_per_minute,
    tokensPerMinute: row.tokens_per_minute,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

function toRow(rule: RateLimitRule): Selectable<RateLimitRuleTable> {
  return {
    id: rule.id,
    organization_id: rule.organizationId,
    workspace_id: rule.workspaceId,
    scope: rule.scope,
    target: rule.target,
    model: rule.model ?? '',
    requests_per_minute: rule.requestsPerMinute,
    tokens_per_minute: rule.tokensPerMinute,
    created_at: rule.createdAt,
    updated_at: rule.updatedAt,
  }
}

export interface RateLimitRuleFilter {
  readonly workspaceId?: string
  readonly scope?: RateLimitScope
  readonly target?: string
}

export function createRateLimitRulesRepository(db: Kysely<Database>) {
  return {
    async listAll(): Promise<RateLimitRule[]> {
      const rows = await db.selectFrom('rate_limit_rules').selectAll().orderBy('created_at').orderBy('id').execute()
      return rows.map(toRule)
    },

    async list(filter: RateLimitRuleFilter): Promise<RateLimitRule[]> {
      let query = db.selectFrom('rate_limit_rules').selectAll()
      if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId)
      if (filter.scope !== undefined) query = query.where('scope', '=', filter.scope)
      if (filter.target !== undefined) query = query.where('target', '=', filter.target)
      const rows = await query.orderBy('created_at').orderBy('id').execute()
      return rows.map(toRule)
    },

    async find(id: string): Promise<RateLimitRule | undefined> {
      const row = await db.selectFrom('rate_limit_rules').selectAll().where('id', '=', id).executeTakeFirst()
      return row === undefined ? undefined : toRule(row)
    },

    findByTarget: (scope: RateLimitScope, target: string, model: string | null) =>
      findByTarget(db, scope, target, model),

    async insert(rule: RateLimitRule): Promise<void> {
      await db.insertInto('rate_limit_rules').values(toRow(rule)).execute()
    },

    async update(rule: RateLimitRule): Promise<void> {
      const row = toRow(rule)
      await db
        .updateTable('rate_limit_rules')
        .set({
          requests_per_minute: row.requests_per_minute,
          tokens_per_minute: row.tokens_per_minute,
          updated_at: row.updated_at,
        })
        .where('id', '=', rule.id)
        .execute()
    },

    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom('rate_limit_rules').where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    /** Removes every rule of a key (when the key is deleted). */
    async deleteForTarget(scope: RateLimitScope, target: string): Promise<void> {
      await db.deleteFrom('rate_limit_rules').where('scope', '=', scope).where('target', '=', target).execute()
    },
  }
}

export type RateLimitRulesRepository = ReturnType<typeof createRateLimitRulesRepository>

async function findByTarget(
  db: Kysely<Database>,
  scope: RateLimitScope,
  target: string,
  model: string | null,
): Promise<RateLimitRule | undefined> {
  const row = await db
    .selectFrom('rate_limit_rules')
    .selectAll()
    .where('scope', '=', scope)
    .where('target', '=', target)
    .where('model', '=', model ?? '')
    .executeTakeFirst()
  return row === undefined ? undefined : toRule(row)
}
