// A create or update body applied to a guardrail: checks the rules the schema cannot express (budget
// fields sent together, valid regular expressions, one entry per builtin, scan_scope only for prompt
// injection) and returns the new record. Collections have replace semantics; null clears.
import { GatewayError } from '../../domain/errors.ts'
import { compileUserPattern } from '../../domain/compile-user-pattern.ts'
import type { BuiltinFilter, GuardrailRecord, PatternFilter } from '../../domain/guardrail-record.ts'
import { formatUsdDecimal } from '../workspaces/format-usd-decimal.ts'
import type { UpdateGuardrailBody } from './schema.ts'

type Body = UpdateGuardrailBody

function pick<T>(value: T | undefined, current: T): T {
  return value === undefined ? current : value
}

function distinct<T>(list: readonly T[] | null | undefined): T[] | null | undefined {
  return list === undefined || list === null ? list : [...new Set(list)]
}

function toPatternFilters(filters: Body['content_filters']): PatternFilter[] | null | undefined {
  if (filters === undefined || filters === null) return filters
  return filters.map((filter, index) => {
    const compiled = compileUserPattern(filter.pattern)
    if ('error' in compiled)
      throw new GatewayError(
        'invalid_request',
        `content_filters[${index}].pattern is not a valid regular expression: ${compiled.error}; docs/workspaces.md lists the accepted syntax`,
      )
    return { pattern: filter.pattern, action: filter.action, label: filter.label ?? null }
  })
}

function toBuiltinFilters(filters: Body['content_filter_builtins']): BuiltinFilter[] | null | undefined {
  if (filters === undefined || filters === null) return filters
  const seen = new Set<string>()
  return filters.map((filter, index) => {
    if (seen.has(filter.slug))
      throw new GatewayError(
        'invalid_request',
        `content_filter_builtins[${index}]: builtin "${filter.slug}" is listed twice; list each builtin once`,
      )
    seen.add(filter.slug)
    if (filter.scan_scope !== undefined && filter.slug !== 'regex-prompt-injection') {
      throw new GatewayError(
        'invalid_request',
        `content_filter_builtins[${index}].scan_scope applies only to regex-prompt-injection; remove it from "${filter.slug}"`,
      )
    }
    return { slug: filter.slug, action: filter.action, scanScope: filter.scan_scope ?? 'all_messages' }
  })
}

/** Create bodies must send limit_usd and reset_interval together (either may be null). */
export function assertBudgetFieldsTogether(body: Body): void {
  if ((body.limit_usd === undefined) !== (body.reset_interval === undefined)) {
    throw new GatewayError(
      'invalid_request',
      'limit_usd and reset_interval must be sent together (reset_interval null means a lifetime budget)',
    )
  }
}

export function applyGuardrailBody(current: GuardrailRecord, body: Body, now: string | null): GuardrailRecord {
  const limitUsd =
    body.limit_usd === undefined ? current.limitUsd : body.limit_usd === null ? null : formatUsdDecimal(body.limit_usd)
  const resetInterval = pick(body.reset_interval, current.resetInterval)
  if (limitUsd === null && resetInterval !== null) {
    throw new GatewayError(
      'invalid_request',
      `reset_interval "${resetInterval}" needs a limit_usd: send a limit_usd greater than 0, or reset_interval null`,
    )
  }
  return {
    ...current,
    name: pick(body.name, current.name),
    description: pick(body.description, current.description),
    limitUsd,
    resetInterval,
    includeByokInBudgets: pick(body.include_byok_in_budgets, current.includeByokInBudgets),
    allowedModels: pick(distinct(body.allowed_models), current.allowedModels),
    ignoredModels: pick(distinct(body.ignored_models), current.ignoredModels),
    allowedProviders: pick(distinct(body.allowed_providers), current.allowedProviders),
    ignoredProviders: pick(distinct(body.ignored_providers), current.ignoredProviders),
    allowedDataRegions: pick(distinct(body.allowed_data_regions), current.allowedDataRegions),
    contentFilters: pick(toPatternFilters(body.content_filters), current.contentFilters),
    contentFilterBuiltins: pick(toBuiltinFilters(body.content_filter_builtins), current.contentFilterBuiltins),
    enforceZdr: {
      all: pick(body.enforce_zdr, current.enforceZdr.all),
      anthropic: pick(body.enforce_zdr_anthropic, current.enforceZdr.anthropic),
      openai: pick(body.enforce_zdr_openai, current.enforceZdr.openai),
      google: pick(body.enforce_zdr_google, current.enforceZdr.google),
      xai: pick(body.enforce_zdr_xai, current.enforceZdr.xai),
      other: pick(body.enforce_zdr_other, current.enforceZdr.other),
    },
    enableFreeModelPublication: pick(body.enable_free_model_publication, current.enableFreeModelPublication),
    enableFreeModelTraining: pick(body.enable_free_model_training, current.enableFreeModelTraining),
    enablePaidModelTraining: pick(body.enable_paid_model_training, current.enablePaidModelTraining),
    updatedAt: now ?? current.updatedAt,
  }
}

/** A guardrail with no rules, the starting point of a create and of a materialized default. */
export function emptyGuardrail(
  fields: Pick<GuardrailRecord, 'id' | 'organizationId' | 'workspaceId' | 'name' | 'createdAt'>,
): GuardrailRecord {
  return {
    ...fields,
    description: null,
    limitUsd: null,
    resetInterval: null,
    includeByokInBudgets: false,
    allowedModels: null,
    ignoredModels: null,
    allowedProviders: null,
    ignoredProviders: null,
    allowedDataRegions: null,
    contentFilters: null,
    contentFilterBuiltins: null,
    enforceZdr: { all: null, anthropic: null, openai: null, google: null, xai: null, other: null },
    enableFreeModelPublication: null,
    enableFreeModelTraining: null,
    enablePaidModelTraining: null,
    updatedAt: null,
  }
}
