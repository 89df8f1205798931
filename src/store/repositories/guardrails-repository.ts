// Guardrail rows. Array fields are JSON text, nullable booleans are 0/1/null, limits decimal strings.
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database } from '../database.ts'
import type { GuardrailTable } from '../tables/workspaces-guardrails-tables.ts'
import type { GuardrailInterval, GuardrailRecord } from '../../domain/guardrail-record.ts'

type Executor = Kysely<Database> | Transaction<Database>

function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T)
}

function toJson(value: unknown): string | null {
  return value === null ? null : JSON.stringify(value)
}

function toFlag(value: number | null): boolean | null {
  return value === null ? null : value === 1
}

function fromFlag(value: boolean | null): number | null {
  return value === null ? null : value ? 1 : 0
}

export function toGuardrailRecord(row: Selectable<GuardrailTable>): GuardrailRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    workspaceId: row.workspace_id,
    name: row.name,
    description: row.description,
    limitUsd: row.limit_usd,
    resetInterval: row.reset_interval as GuardrailInterval | null,
    includeByokInBudgets: row.include_byok_in_budgets === 1,
    allowedModels: parseJson(row.allowed_models),
    ignoredModels: parseJson(row.ignored_models),
    allowedProviders: parseJson(row.allowed_providers),
    ignoredProviders: parseJson(row.ignored_providers),
    allowedDataRegions: parseJson(row.allowed_data_regions),
    contentFilters: parseJson(row.content_filters),
    contentFilterBuiltins: parseJson(row.content_filter_builtins),
    enforceZdr: {
      all: toFlag(row.enforce_zdr),
      anthropic: toFlag(row.enforce_zdr_anthropic),
      openai: toFlag(row.enforce_zdr_openai),
      google: toFlag(row.enforce_zdr_google),
      xai: toFlag(row.enforce_zdr_xai),
      other: toFlag(row.enforce_zdr_other),
    },
    enableFreeModelPublication: toFlag(row.enable_free_model_publication),
    enableFreeModelTraining: toFlag(row.enable_free_model_training),
    enablePaidModelTraining: toFlag(row.enable_paid_model_training),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export function toGuardrailRow(record: GuardrailRecord): Selectable<GuardrailTable> {
  return {
    id: record.id,
    organization_id: record.organizationId,
    workspace_id: record.workspaceId,
    name: record.name,
    description: record.description,
    limit_usd: record.limitUsd,
    reset_interval: record.resetInterval,
    include_byok_in_budgets: record.includeByokInBudgets ? 1 : 0,
    allowed_models: toJson(record.allowedModels),
    ignored_models: toJson(record.ignoredModels),
    allowed_providers: toJson(record.allowedProviders),
    ignored_providers: toJson(record.ignoredProviders),
    allowed_data_regions: toJson(record.allowedDataRegions),
    content_filters: toJson(record.contentFilters),
    content_filter_builtins: toJson(record.contentFilterBuiltins),
    enforce_zdr: fromFlag(record.enforceZdr.all),
    enforce_zdr_anthropic: fromFlag(record.enforceZdr.anthropic),
    enforce_zdr_openai: fromFlag(record.enforceZdr.openai),
    enforce_zdr_google: fromFlag(record.enforceZdr.google),
    enforce_zdr_xai: fromFlag(record.enforceZdr.xai),
    enforce_zdr_other: fromFlag(record.enforceZdr.other),
    enable_free_model_publication: fromFlag(record.enableFreeModelPublication),
    enable_free_model_training: fromFlag(record.enableFreeModelTraining),
    enable_paid_model_training: fromFlag(record.enablePaidModelTraining),
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  }
}

export function createGuardrailsRepository(db: Kysely<Database>) {
  return {
    async insert(record: GuardrailRecord, executor: Executor = db): Promise<void> {
      await executor.insertInto('guardrails').values(toGuardrailRow(record)).execute()
    },

    async replace(record: GuardrailRecord): Promise<void> {
      const { id, ...values } = toGuardrailRow(record)
      await db.updateTable('guardrails').set(values).where('id', '=', id).execute()
    },

    async find(id: string): Promise<GuardrailRecord | undefined> {
      const row = await db.selectFrom('guardrails').selectAll().where('id', '=', id).executeTakeFirst()
      return row === undefined ? undefined : toGuardrailRecord(row)
    },

    async list(
      query: { workspaceId?: string; offset?: number; limit?: number } = {},
    ): Promise<{ rows: GuardrailRecord[]; total: number }> {
      let select = db.selectFrom('guardrails')
      if (query.workspaceId !== undefined) select = select.where('workspace_id', '=', query.workspaceId)
      const rows = await select
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .limit(query.limit ?? 1_000_000)
        .offset(query.offset ?? 0)
        .execute()
      const count = await select
        .select((builder) => builder.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow()
      return { rows: rows.map(toGuardrailRecord), total: Number(count.count) }
    },

    async listIdsOfWorkspace(workspaceId: string, executor: Executor = db): Promise<string[]> {
      const rows = await executor
        .selectFrom('guardrails')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .execute()
      return rows.map((row) => row.id)
    },

    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom('guardrails').where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}

export type GuardrailsRepository = ReturnType<typeof createGuardrailsRepository>
