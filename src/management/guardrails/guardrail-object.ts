// GuardrailRecord -> wire object of api-reference §5.1.
import { builtinLabels, type GuardrailRecord } from '../../domain/guardrail-record.ts'
import type { Guardrail } from './schema.ts'

export function toGuardrailObject(record: GuardrailRecord): Guardrail {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    workspace_id: record.workspaceId,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    limit_usd: record.limitUsd === null ? null : Number(record.limitUsd),
    reset_interval: record.resetInterval,
    include_byok_in_budgets: record.includeByokInBudgets,
    allowed_models: copy(record.allowedModels),
    ignored_models: copy(record.ignoredModels),
    allowed_providers: copy(record.allowedProviders),
    ignored_providers: copy(record.ignoredProviders),
    allowed_data_regions: copy(record.allowedDataRegions),
    content_filters:
      record.contentFilters === null
        ? null
        : record.contentFilters.map((filter) => ({
            pattern: filter.pattern,
            action: filter.action,
            label: filter.label,
          })),
    content_filter_builtins:
      record.contentFilterBuiltins === null
        ? null
        : record.contentFilterBuiltins.map((filter) => ({
            slug: filter.slug,
            action: filter.action,
            label: builtinLabels[filter.slug],
            ...(filter.slug === 'regex-prompt-injection' ? { scan_scope: filter.scanScope } : {}),
          })),
    enforce_zdr: record.enforceZdr.all,
    enforce_zdr_anthropic: record.enforceZdr.anthropic,
    enforce_zdr_openai: record.enforceZdr.openai,
    enforce_zdr_google: record.enforceZdr.google,
    enforce_zdr_xai: record.enforceZdr.xai,
    enforce_zdr_other: record.enforceZdr.other,
    enable_free_model_publication: record.enableFreeModelPublication,
    enable_free_model_training: record.enableFreeModelTraining,
    enable_paid_model_training: record.enablePaidModelTraining,
  }
}

function copy<T>(list: readonly T[] | null): T[] | null {
  return list === null ? null : [...list]
}
