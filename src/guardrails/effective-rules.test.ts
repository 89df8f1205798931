import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isModelAllowed, isProviderAllowed, resolveEffectiveRules } from './effective-rules.ts'
import type { GuardrailRecord } from '../domain/guardrail-record.ts'
import { emptyGuardrail } from '../management/guardrails/apply-guardrail-body.ts'

function guardrail(id: string, fields: Partial<GuardrailRecord> = {}): GuardrailRecord {
  return {
    ...emptyGuardrail({
      id,
      organizationId: 'org',
      workspaceId: 'ws',
      name: `guardrail ${id}`,
      createdAt: '2026-01-01T00:00:00.000Z',
    }),
    ...fields,
  }
}

test('no guardrail: everything allowed, nothing enforced', () => {
  const rules = resolveEffectiveRules({})
  assert.deepEqual(rules.guardrailIds, [])
  assert.equal(rules.allowedModels, null)
  assert.equal(isModelAllowed(rules, 'any/model'), true)
  assert.deepEqual(rules.budgets, [])
  assert.deepEqual(rules.contentFilters, [])
  assert.deepEqual(rules.enforceZdr, { anthropic: false, openai: false, google: false, xai: false, other: false })
  assert.equal(rules.enableFreeModelTraining, null)
})

test('allow-lists intersect; a guardrail without a list does not widen it', () => {
  const rules = resolveEffectiveRules({
    key: guardrail('k', { allowedModels: ['a/1', 'b/2', 'c/3'], allowedProviders: ['acme'] }),
    member: guardrail('m', { allowedModels: ['b/2', 'c/3', 'd/4'] }),
    workspaceDefault: guardrail('w', { allowedModels: ['c/3', 'b/2'], allowedDataRegions: ['europe', 'us'] }),
  })
  assert.deepEqual(rules.allowedModels, ['b/2', 'c/3'])
  assert.deepEqual(rules.allowedProviders, ['acme'])
  assert.deepEqual(rules.allowedDataRegions, ['europe', 'us'])
  assert.equal(isModelAllowed(rules, 'a/1'), false)
  assert.equal(isModelAllowed(rules, 'c/3'), true)
  assert.equal(isProviderAllowed(rules, 'acme'), true)
  assert.equal(isProviderAllowed(rules, 'other'), false)
})

test('disjoint allow-lists leave nothing allowed', () => {
  const rules = resolveEffectiveRules({
    key: guardrail('k', { allowedModels: ['a/1'] }),
    member: guardrail('m', { allowedModels: ['b/2'] }),
  })
  assert.deepEqual(rules.allowedModels, [])
  assert.equal(isModelAllowed(rules, 'a/1'), false)
})

test('ignore-lists unite and beat allow-lists', () => {
  const rules = resolveEffectiveRules({
    key: guardrail('k', { allowedModels: ['a/1', 'b/2'], ignoredModels: ['a/1'], ignoredProviders: ['p1'] }),
    workspaceDefault: guardrail('w', { ignoredModels: ['c/3', 'a/1'], ignoredProviders: ['p2'] }),
  })
  assert.deepEqual(rules.ignoredModels, ['a/1', 'c/3'])
  assert.deepEqual(rules.ignoredProviders, ['p1', 'p2'])
  assert.equal(isModelAllowed(rules, 'a/1'), false)
  assert.equal(isModelAllowed(rules, 'b/2'), true)
  assert.equal(isProviderAllowed(rules, 'p2'), false)
})

test('every budget applies, each attributed to its guardrail', () => {
  const rules = resolveEffectiveRules({
    key: guardrail('k', { limitUsd: '5', resetInterval: 'daily' }),
    member: guardrail('m'),
    workspaceDefault: guardrail('w', { limitUsd: '100', resetInterval: null, includeByokInBudgets: true }),
  })
  assert.deepEqual(rules.budgets, [
    {
      guardrailId: 'k',
      guardrailName: 'guardrail k',
      limitUsd: '5',
      resetInterval: 'daily',
      includeByokInBudgets: false,
    },
    {
      guardrailId: 'w',
      guardrailName: 'guardrail w',
      limitUsd: '100',
      resetInterval: null,
      includeByokInBudgets: true,
    },
  ])
})

test('the same guardrail held by key and member counts once', () => {
  const shared = guardrail('s', {
    limitUsd: '5',
    resetInterval: 'monthly',
    contentFilterBuiltins: [{ slug: 'email', action: 'redact', scanScope: 'all_messages' }],
  })
  const rules = resolveEffectiveRules({ key: shared, member: shared })
  assert.deepEqual(rules.guardrailIds, ['s'])
  assert.equal(rules.budgets.length, 1)
  assert.equal(rules.contentFilters.length, 1)
})

test('content filters of every guardrail run, patterns before builtins per guardrail', () => {
  const rules = resolveEffectiveRules({
    key: guardrail('k', { contentFilters: [{ pattern: 'x', action: 'block', label: null }] }),
    workspaceDefault: guardrail('w', {
      contentFilterBuiltins: [{ slug: 'ssn', action: 'redact', scanScope: 'all_messages' }],
    }),
  })
  assert.deepEqual(
    rules.contentFilters.map((filter) => [filter.guardrailId, filter.kind, filter.action]),
    [
      ['k', 'pattern', 'block'],
      ['w', 'builtin', 'redact'],
    ],
  )
})

test('privacy flags: ZDR is required when any guardrail requires it; training is off when any forbids it', () => {
  const rules = resolveEffectiveRules({
    key: guardrail('k', {
      enforceZdr: { all: null, anthropic: true, openai: false, google: null, xai: null, other: null },
      enableFreeModelTraining: true,
      enablePaidModelTraining: true,
    }),
    member: guardrail('m', { enableFreeModelTraining: false, enableFreeModelPublication: true }),
  })
  assert.deepEqual(rules.enforceZdr, { anthropic: true, openai: false, google: false, xai: false, other: false })
  assert.equal(rules.enableFreeModelTraining, false)
  assert.equal(rules.enablePaidModelTraining, true)
  assert.equal(rules.enableFreeModelPublication, true)
  const legacy = resolveEffectiveRules({
    workspaceDefault: guardrail('w', {
      enforceZdr: { all: true, anthropic: null, openai: null, google: null, xai: null, other: null },
    }),
  })
  assert.deepEqual(legacy.enforceZdr, { anthropic: true, openai: true, google: true, xai: true, other: true })
})
