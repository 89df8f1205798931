// Compiles a request schema once and turns its violations into one GatewayError naming every bad field
// (of a long list, its first few bad items: invalid-list-items.ts).

import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { collectAllErrors } from '../domain/collect-all-errors.ts'
import { GatewayError } from '../domain/errors.ts'
import { oversizedLists } from './oversized-lists.ts'
import { narrowToInvalidItems } from './invalid-list-items.ts'

export type SchemaCheck = (body: unknown) => void

/** Bad items of one list named in a refusal; past them the message says there are more. */
export const maxInvalidItems = 8

interface SchemaViolation {
  readonly keyword: string
  readonly schemaPath: string
  readonly instancePath: string
  readonly message?: string
  readonly params?: unknown
}

export function createSchemaCheck(schema: TSchema): SchemaCheck {
  const compiled = Compile(schema)
  return (body) => {
    if (compiled.Check(body)) return
    const oversized = oversizedLists(schema, body)
    if (oversized.length > 0) throw new GatewayError('invalid_request', oversized.sort().join('; '))
    const narrowed = narrowToInvalidItems(schema, body, maxInvalidItems)
    const violations = (collectAllErrors(() => compiled.Errors(narrowed.body)) as SchemaViolation[]).map(
      (violation) => ({ ...violation, instancePath: narrowed.toOriginalPath(violation.instancePath) }),
    )
    const described = describeViolations(violations, (violation) => mismatchedBranchAt(schema, body, violation))
    const more = narrowed.truncated.map(
      (path) => `${toFieldPath(path)}: more invalid items after the first ${maxInvalidItems}`,
    )
    throw new GatewayError('invalid_request', [described, ...more].join('; '))
  }
}

/** `/input/0/content` -> `input[0].content` */
export function toFieldPath(instancePath: string): string {
  let path = ''
  for (const segment of instancePath.split('/').slice(1)) {
    const decoded = segment.replace(/~1/g, '/').replace(/~0/g, '~')
    if (/^\d+$/.test(decoded)) path += `[${decoded}]`
    else path += path === '' ? decoded : `.${decoded}`
  }
  return path
}

/**
 * Every bad field, each once: union wrappers and branch mismatches (a wrong `type` or `role` discriminator)
 * only explain a value when no branch matched it; under one field the deepest violation speaks for the rest.
 */
function describeViolations(
  violations: readonly SchemaViolation[],
  mismatchedAt: (violation: SchemaViolation) => string | undefined,
): string {
  const specific = violations.filter((violation) => !isUnionWrapper(violation))
  const mismatchPaths = violations.filter(isDiscriminatorMismatch).map((violation) => violation.instancePath)
  const isOtherBranchType = (violation: SchemaViolation): boolean =>
    violation.keyword === 'type' && mismatchPaths.some((path) => path.startsWith(`${violation.instancePath}/`))
  // A `type` or `role` outside any union is a plain field; inside one, its mismatch means something only
  // when every branch above its own union matched.
  const decisive = specific.filter(
    (violation) => mismatchedAt(violation) === undefined && !isOtherBranchType(violation),
  )
  const mismatches = violations.filter(
    (violation) => isDiscriminatorMismatch(violation) && mismatchedAt(violation) === discriminatedObject(violation),
  )
  const lines = [
    ...deepestPerField(decisive).map(describeViolation),
    ...unresolvedDiscriminators(mismatches, decisive).map((mismatch) =>
      mismatch.keyword === 'required'
        ? describeMissingDiscriminator(mismatch)
        : describeDiscriminator(mismatch.instancePath, specific),
    ),
  ]
  if (lines.length > 0) return [...new Set(lines)].sort().join('; ')
  const candidates = specific.length > 0 ? specific : violations
  const deepest = [...candidates].sort(byDepthThenKeyword)[0]
  return deepest === undefined ? 'The request body is invalid' : describeViolation(deepest)
}

/** The path a violation is about: a missing property names the child, not its parent. */
function fieldPathOf(violation: SchemaViolation): string {
  if (violation.keyword === 'required') return `${violation.instancePath}/${requiredNames(violation).join(',')}`
  return violation.instancePath
}

function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`)
}

/** One violation per bad field, the deepest first; a violation about an ancestor of a reported one is dropped. */
function deepestPerField(violations: readonly SchemaViolation[]): SchemaViolation[] {
  const kept: SchemaViolation[] = []
  for (const violation of [...violations].sort(byDepthThenKeyword)) {
    const path = fieldPathOf(violation)
    if (kept.some((other) => isWithin(fieldPathOf(other), path))) continue
    kept.push(violation)
  }
  return kept.sort((a, b) => (fieldPathOf(a) < fieldPathOf(b) ? -1 : 1))
}

/** The object whose union branch a `type`/`role` mismatch rejected. */
function discriminatedObject(mismatch: SchemaViolation): string {
  return mismatch.keyword === 'required' ? mismatch.instancePath : mismatch.instancePath.replace(/\/[^/]*$/, '')
}

/**
 * The mismatches no branch resolved: nothing decisive lies inside the object they discriminate, and no
 * meaningful mismatch deeper inside it (which proves a branch at this object matched).
 */
function unresolvedDiscriminators(
  mismatches: readonly SchemaViolation[],
  decisive: readonly SchemaViolation[],
): SchemaViolation[] {
  return mismatches.filter((mismatch) => {
    const object = discriminatedObject(mismatch)
    if (decisive.some((violation) => isWithin(violation.instancePath, object))) return false
    if (mismatches.some((other) => discriminatedObject(other).startsWith(`${object}/`))) return false
    // A wrong `type` explains the object better than the fields its other branches require.
    return (
      mismatch.keyword !== 'required' ||
      !mismatches.some((other) => other.keyword !== 'required' && discriminatedObject(other) === object)
    )
  })
}

function describeMissingDiscriminator(mismatch: SchemaViolation): string {
  const name = requiredNames(mismatch).find((candidate) => candidate === 'type' || candidate === 'role') ?? 'type'
  const path = toFieldPath(mismatch.instancePath)
  return `${path === '' ? name : `${path}.${name}`}: is required`
}

function isUnionWrapper(violation: SchemaViolation): boolean {
  return violation.keyword === 'anyOf' || violation.keyword === 'oneOf' || violation.keyword === 'boolean'
}

function isDiscriminatorMismatch(violation: SchemaViolation): boolean {
  if (violation.keyword === 'required')
    return requiredNames(violation).some((name) => name === 'type' || name === 'role')
  return ['const', 'enum', 'pattern'].includes(violation.keyword) && /\/(type|role)$/.test(violation.instancePath)
}

/** Every allowed `type` of the union branches at one path, in one message. */
function describeDiscriminator(instancePath: string, violations: readonly SchemaViolation[]): string {
  const allowed = violations
    .filter((violation) => violation.instancePath === instancePath)
    .flatMap((violation) => {
      const params = (violation.params ?? {}) as Record<string, unknown>
      if (violation.keyword === 'required') return []
      if (violation.keyword === 'pattern') return [`${String(params.pattern ?? '')} (pattern)`]
      return (
        (params.allowedValues as unknown[] | undefined) ??
        (params.allowedValue === undefined ? [] : [params.allowedValue])
      )
    })
  return `${toFieldPath(instancePath)}: must be one of ${[...new Set(allowed)].map((value) => JSON.stringify(value)).join(', ')}`
}

/** Deeper paths first; at one depth a bound or pattern explains more than a type mismatch. */
function byDepthThenKeyword(a: SchemaViolation, b: SchemaViolation): number {
  const depth = b.instancePath.length - a.instancePath.length
  if (depth !== 0) return depth
  return Number(a.keyword === 'type') - Number(b.keyword === 'type')
}

function describeViolation(violation: SchemaViolation): string {
  const path = toFieldPath(violation.instancePath)
  const params = (violation.params ?? {}) as Record<string, unknown>
  if (violation.keyword === 'required') {
    return requiredNames(violation)
      .map((name) => `${path === '' ? name : `${path}.${name}`}: is required`)
      .join('; ')
  }
  if (violation.keyword === 'enum' || violation.keyword === 'const') {
    const allowed =
      (params.allowedValues as unknown[] | undefined) ??
      (params.allowedValue === undefined ? undefined : [params.allowedValue])
    if (allowed !== undefined)
      return `${path || '(body)'}: must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}`
  }
  return `${path || '(body)'}: ${violation.message ?? 'is invalid'}`
}

function requiredNames(violation: SchemaViolation): string[] {
  const params = (violation.params ?? {}) as Record<string, unknown>
  return (params.requiredProperties as string[] | undefined) ?? [String(params.missingProperty ?? '?')]
}

/**
 * Where the violation sits in a union branch whose `type` or `role` discriminator the value does not match
 * (that branch was never the one meant): the instance path of the first such branch, or undefined. Walks the
 * schema along the violation's schema path and the body along its instance path together.
 */
function mismatchedBranchAt(schema: TSchema, body: unknown, violation: SchemaViolation): string | undefined {
  const steps = violation.schemaPath
    .replace(/^#\/?/, '')
    .split('/')
    .filter((step) => step !== '')
  let node = schema as unknown
  let value = body
  let path = ''
  for (let at = 0; at < steps.length; at++) {
    const step = steps[at] ?? ''
    if (step === 'properties' || step === 'anyOf' || step === 'oneOf') {
      const key = steps[++at] ?? ''
      node = child(child(node, step), key)
      if (step === 'properties') {
        value = child(value, key)
        path += `/${key}`
      } else if (!matchesDiscriminator(node, value)) return path
    } else if (step === 'items') {
      node = child(node, step)
      const index = violation.instancePath.split('/')[depthOf(steps, at) + 1] ?? ''
      value = child(value, index)
      path += `/${index}`
    } else {
      node = child(node, step)
    }
  }
  return undefined
}

/** How many instance segments the schema steps before `at` consumed (properties and items each one). */
function depthOf(steps: readonly string[], at: number): number {
  let depth = 0
  for (let index = 0; index < at; index++) {
    if (steps[index] === 'properties') {
      depth++
      index++
    } else if (steps[index] === 'items') depth++
    else if (steps[index] === 'anyOf' || steps[index] === 'oneOf') index++
  }
  return depth
}

function child(node: unknown, key: string): unknown {
  return typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined
}

function matchesDiscriminator(branch: unknown, value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return true
  for (const key of ['type', 'role']) {
    const rule = child(child(branch, 'properties'), key) as
      { const?: unknown; enum?: unknown[]; pattern?: string } | undefined
    if (rule === undefined) continue
    const actual = (value as Record<string, unknown>)[key]
    // An optional discriminator (a Responses message item's `type`) left out still chooses its branch.
    const required = child(branch, 'required')
    if (actual === undefined && !(Array.isArray(required) && required.includes(key))) continue
    if (rule.const !== undefined && actual !== rule.const) return false
    if (Array.isArray(rule.enum) && !rule.enum.includes(actual)) return false
    if (typeof rule.pattern === 'string' && (typeof actual !== 'string' || !new RegExp(rule.pattern).test(actual)))
      return false
  }
  return true
}
