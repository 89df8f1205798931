// The rules that apply to one request: the combination of the key's guardrail, the guardrail of the
// member who created the key and the workspace's default guardrail. Allow-lists intersect (a model must
// be allowed by every guardrail that has a list), ignore-lists unite, every budget applies, every
// content filter runs, and for the privacy flags the most restrictive setting wins.
import { compileUserPattern, type CompiledUserPattern } from '../domain/compile-user-pattern.ts'
import type { ZdrFamily } from '../domain/inference/zdr-family.ts'
import type {
  BuiltinFilterSlug,
  ContentFilterAction,
  DataRegion,
  GuardrailInterval,
  GuardrailRecord,
  ScanScope,
} from '../domain/guardrail-record.ts'

export interface GuardrailSources {
  readonly key?: GuardrailRecord | undefined
  readonly member?: GuardrailRecord | undefined
  readonly workspaceDefault?: GuardrailRecord | undefined
}

export interface EffectiveBudget {
  readonly guardrailId: string
  readonly guardrailName: string
  /** USD, decimal string. */
  readonly limitUsd: string
  /** null = lifetime. */
  readonly resetInterval: GuardrailInterval | null
  readonly includeByokInBudgets: boolean
}

interface AttributedFilter {
  readonly guardrailId: string
  readonly guardrailName: string
  readonly action: ContentFilterAction
}

export type EffectiveContentFilter =
  | (AttributedFilter & {
      readonly kind: 'pattern'
      readonly pattern: string
      readonly label: string | null
      /** Compiled here, where the guardrail cache keeps the rules per key, so a request never compiles it. */
      readonly compiled: CompiledUserPattern
    })
  | (AttributedFilter & { readonly kind: 'builtin'; readonly slug: BuiltinFilterSlug; readonly scanScope: ScanScope })

export interface EffectiveRules {
  /** The guardrails that contributed, key first, then member, then workspace default. */
  readonly guardrailIds: readonly string[]
  /** null = no allow-list (everything allowed that is not ignored). */
  readonly allowedModels: readonly string[] | null
  readonly ignoredModels: readonly string[]
  readonly allowedProviders: readonly string[] | null
  readonly ignoredProviders: readonly string[]
  readonly allowedDataRegions: readonly DataRegion[] | null
  readonly budgets: readonly EffectiveBudget[]
  readonly contentFilters: readonly EffectiveContentFilter[]
  readonly enforceZdr: Readonly<Record<ZdrFamily, boolean>>
  /** false when any guardrail forbids it, true when one allows it and none forbids, null when unset. */
  readonly enableFreeModelPublication: boolean | null
  readonly enableFreeModelTraining: boolean | null
  readonly enablePaidModelTraining: boolean | null
}

export function resolveEffectiveRules(sources: GuardrailSources): EffectiveRules {
  const guardrails = distinctGuardrails([sources.key, sources.member, sources.workspaceDefault])
  return {
    guardrailIds: guardrails.map((guardrail) => guardrail.id),
    allowedModels: intersect(guardrails.map((guardrail) => guardrail.allowedModels)),
    ignoredModels: unite(guardrails.map((guardrail) => guardrail.ignoredModels)),
    allowedProviders: intersect(guardrails.map((guardrail) => guardrail.allowedProviders)),
    ignoredProviders: unite(guardrails.map((guardrail) => guardrail.ignoredProviders)),
    allowedDataRegions: intersect(guardrails.map((guardrail) => guardrail.allowedDataRegions)),
    budgets: guardrails.flatMap(toBudget),
    contentFilters: guardrails.flatMap(toContentFilters),
    enforceZdr: {
      anthropic: guardrails.some(
        (guardrail) => guardrail.enforceZdr.all === true || guardrail.enforceZdr.anthropic === true,
      ),
      openai: guardrails.some((guardrail) => guardrail.enforceZdr.all === true || guardrail.enforceZdr.openai === true),
      google: guardrails.some((guardrail) => guardrail.enforceZdr.all === true || guardrail.enforceZdr.google === true),
      xai: guardrails.some((guardrail) => guardrail.enforceZdr.all === true || guardrail.enforceZdr.xai === true),
      other: guardrails.some((guardrail) => guardrail.enforceZdr.all === true || guardrail.enforceZdr.other === true),
    },
    enableFreeModelPublication: mostRestrictive(guardrails.map((guardrail) => guardrail.enableFreeModelPublication)),
    enableFreeModelTraining: mostRestrictive(guardrails.map((guardrail) => guardrail.enableFreeModelTraining)),
    enablePaidModelTraining: mostRestrictive(guardrails.map((guardrail) => guardrail.enablePaidModelTraining)),
  }
}

export function isModelAllowed(rules: EffectiveRules, model: string): boolean {
  return (rules.allowedModels === null || rules.allowedModels.includes(model)) && !rules.ignoredModels.includes(model)
}

export function isProviderAllowed(rules: EffectiveRules, provider: string): boolean {
  return (
    (rules.allowedProviders === null || rules.allowedProviders.includes(provider)) &&
    !rules.ignoredProviders.includes(provider)
  )
}

function distinctGuardrails(candidates: readonly (GuardrailRecord | undefined)[]): GuardrailRecord[] {
  const seen = new Set<string>()
  const result: GuardrailRecord[] = []
  for (const candidate of candidates) {
    if (candidate === undefined || seen.has(candidate.id)) continue
    seen.add(candidate.id)
    result.push(candidate)
  }
  return result
}

function intersect<T>(lists: readonly (readonly T[] | null)[]): T[] | null {
  const present = lists.filter((list): list is readonly T[] => list !== null)
  const [first, ...rest] = present
  if (first === undefined) return null
  return [...new Set(first)].filter((item) => rest.every((list) => list.includes(item)))
}

function unite<T>(lists: readonly (readonly T[] | null)[]): T[] {
  return [...new Set(lists.flatMap((list) => list ?? []))]
}

function mostRestrictive(values: readonly (boolean | null)[]): boolean | null {
  if (values.includes(false)) return false
  return values.includes(true) ? true : null
}

function toBudget(guardrail: GuardrailRecord): EffectiveBudget[] {
  if (guardrail.limitUsd === null) return []
  return [
    {
      guardrailId: guardrail.id,
      guardrailName: guardrail.name,
      limitUsd: guardrail.limitUsd,
      resetInterval: guardrail.resetInterval,
      includeByokInBudgets: guardrail.includeByokInBudgets,
    },
  ]
}

function toContentFilters(guardrail: GuardrailRecord): EffectiveContentFilter[] {
  const attribution = { guardrailId: guardrail.id, guardrailName: guardrail.name }
  return [
    ...(guardrail.contentFilters ?? []).map((filter) => ({
      ...attribution,
      kind: 'pattern' as const,
      pattern: filter.pattern,
      label: filter.label,
      compiled: compileUserPattern(filter.pattern),
      action: filter.action,
    })),
    ...(guardrail.contentFilterBuiltins ?? []).map((filter) => ({
      ...attribution,
      kind: 'builtin' as const,
      slug: filter.slug,
      scanScope: filter.scanScope,
      action: filter.action,
    })),
  ]
}
