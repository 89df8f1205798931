// filter_rules (api-reference §6.4): groups of rules over generation fields. A group joins its rules
// with its `logic` (and | or); a trace passes when EVERY group matches. Disabled or absent rules pass
// everything. A regex rule runs on RE2 (linear time, see compile-user-pattern.ts); a stored pattern
// that RE2 cannot compile (written before patterns were checked for it) matches nothing.
import { compileUserPattern } from '../domain/compile-user-pattern.ts'

export type FilterField =
  | 'model'
  | 'provider'
  | 'session_id'
  | 'user_id'
  | 'api_key_name'
  | 'finish_reason'
  | 'input'
  | 'output'
  | 'total_cost'
  | 'total_tokens'
  | 'prompt_tokens'
  | 'completion_tokens'

export type FilterOperator =
  | 'equals'
  | 'not_equals'
  | 'contains'
  | 'not_contains'
  | 'regex'
  | 'starts_with'
  | 'ends_with'
  | 'gt'
  | 'lt'
  | 'gte'
  | 'lte'
  | 'exists'
  | 'not_exists'

export const filterFields: readonly FilterField[] = [
  'model',
  'provider',
  'session_id',
  'user_id',
  'api_key_name',
  'finish_reason',
  'input',
  'output',
  'total_cost',
  'total_tokens',
  'prompt_tokens',
  'completion_tokens',
]
export const filterOperators: readonly FilterOperator[] = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'regex',
  'starts_with',
  'ends_with',
  'gt',
  'lt',
  'gte',
  'lte',
  'exists',
  'not_exists',
]

export interface FilterRule {
  readonly field: FilterField
  readonly operator: FilterOperator
  readonly value?: string | number
}

export interface FilterRuleGroup {
  readonly logic: 'and' | 'or'
  readonly rules: readonly FilterRule[]
}

export interface FilterRules {
  readonly enabled: boolean
  readonly groups: readonly FilterRuleGroup[]
}

export type FieldValues = Readonly<Record<FilterField, string | number | null>>

const numericOperators = new Set<FilterOperator>(['gt', 'lt', 'gte', 'lte'])
const maxRegexLength = 500

type Comparison = (actual: string | number, expected: string | number) => boolean

const comparisons: Readonly<Record<Exclude<FilterOperator, 'exists' | 'not_exists'>, Comparison>> = {
  equals: (actual, expected) => String(actual) === String(expected),
  not_equals: (actual, expected) => String(actual) !== String(expected),
  contains: (actual, expected) => String(actual).includes(String(expected)),
  not_contains: (actual, expected) => !String(actual).includes(String(expected)),
  regex: (actual, expected) => {
    const compiled = compileUserPattern(String(expected))
    return 'pattern' in compiled && compiled.pattern.test(String(actual))
  },
  starts_with: (actual, expected) => String(actual).startsWith(String(expected)),
  ends_with: (actual, expected) => String(actual).endsWith(String(expected)),
  gt: (actual, expected) => Number(actual) > Number(expected),
  lt: (actual, expected) => Number(actual) < Number(expected),
  gte: (actual, expected) => Number(actual) >= Number(expected),
  lte: (actual, expected) => Number(actual) <= Number(expected),
}

/** Whether one rule holds. A missing field satisfies only not_exists, not_equals and not_contains. */
export function matchesRule(rule: FilterRule, values: FieldValues): boolean {
  const actual = values[rule.field]
  const present = actual !== null && actual !== ''
  if (rule.operator === 'exists') return present
  if (rule.operator === 'not_exists') return !present
  if (!present) return rule.operator === 'not_equals' || rule.operator === 'not_contains'
  if (numericOperators.has(rule.operator) && !Number.isFinite(Number(actual))) return false
  return comparisons[rule.operator](actual, rule.value ?? '')
}

export function matchesFilterRules(rules: FilterRules | null, values: FieldValues): boolean {
  if (rules === null || !rules.enabled) return true
  return rules.groups.every((group) => {
    if (group.rules.length === 0) return true
    return group.logic === 'or'
      ? group.rules.some((rule) => matchesRule(rule, values))
      : group.rules.every((rule) => matchesRule(rule, values))
  })
}

/** Every problem with a filter_rules value, by path (empty when valid). Input already has the right shape. */
export function filterRulesProblems(rules: FilterRules): string[] {
  const problems: string[] = []
  rules.groups.forEach((group, groupIndex) => {
    group.rules.forEach((rule, ruleIndex) => {
      const path = `filter_rules.groups[${groupIndex}].rules[${ruleIndex}]`
      const needsValue = rule.operator !== 'exists' && rule.operator !== 'not_exists'
      if (needsValue && rule.value === undefined)
        problems.push(`${path}.value is required for operator ${rule.operator}`)
      if (numericOperators.has(rule.operator) && rule.value !== undefined && !Number.isFinite(Number(rule.value))) {
        problems.push(`${path}.value must be a number for operator ${rule.operator}`)
      }
      if (rule.operator === 'regex' && typeof rule.value === 'string') problems.push(...regexProblems(path, rule.value))
    })
  })
  return problems
}

function regexProblems(path: string, pattern: string): string[] {
  if (pattern.length > maxRegexLength) return [`${path}.value must be a regex of at most ${maxRegexLength} characters`]
  const compiled = compileUserPattern(pattern)
  if ('pattern' in compiled) return []
  return [
    `${path}.value is not a valid regular expression: ${compiled.error}; docs/observability.md lists the accepted syntax`,
  ]
}
