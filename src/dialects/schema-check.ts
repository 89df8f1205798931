// Compiles a request schema once and turns its first violation into a GatewayError naming the field.

import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { GatewayError } from '../domain/errors.ts'

export type SchemaCheck = (body: unknown) => void

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
    const violations = [...compiled.Errors(body)] as SchemaViolation[]
    throw new GatewayError(
      'invalid_request',
      describeViolations(violations, (violation) => isInMismatchedBranch(schema, body, violation)),
    )
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
 * The most specific violation: union wrappers and branch mismatches (a wrong `type` or `role` discriminator) only
 * explain when nothing else does; then the deepest path.
 */
function describeViolations(
  violations: readonly SchemaViolation[],
  isInMismatchedBranch: (violation: SchemaViolation) => boolean,
): string {
  const specific = violations.filter((violation) => !isUnionWrapper(violation))
  const mismatchPaths = violations.filter(isDiscriminatorMismatch).map((violation) => violation.instancePath)
  const isOtherBranchType = (violation: SchemaViolation): boolean =>
    violation.keyword === 'type' && mismatchPaths.some((path) => path.startsWith(`${violation.instancePath}/`))
  const decisive = specific.filter(
    (violation) =>
      !isDiscriminatorMismatch(violation) && !isInMismatchedBranch(violation) && !isOtherBranchType(violation),
  )
  const candidates = decisive.length > 0 ? decisive : specific.length > 0 ? specific : violations
  const deepest = [...candidates].sort(byDepthThenKeyword)[0]
  if (deepest === undefined) return 'The request body is invalid'
  if (decisive.length === 0 && isDiscriminatorMismatch(deepest))
    return describeDiscriminator(deepest.instancePath, candidates)
  return describeViolation(deepest)
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
 * Whether the violation sits in a union branch whose `type` or `role` discriminator the value does not
 * match (that branch was never the one meant). Walks the schema along the violation's schema path and
 * the body along its instance path together.
 */
function isInMismatchedBranch(schema: TSchema, body: unknown, violation: SchemaViolation): boolean {
  const steps = violation.schemaPath
    .replace(/^#\/?/, '')
    .split('/')
    .filter((step) => step !== '')
  let node = schema as unknown
  let value = body
  for (let at = 0; at < steps.length; at++) {
    const step = steps[at] ?? ''
    if (step === 'properties' || step === 'anyOf' || step === 'oneOf') {
      const key = steps[++at] ?? ''
      node = child(child(node, step), key)
      if (step === 'properties') value = child(value, key)
      else if (!matchesDiscriminator(node, value)) return true
    } else if (step === 'items') {
      node = child(node, step)
      value = child(value, violation.instancePath.split('/')[depthOf(steps, at) + 1] ?? '')
    } else {
      node = child(node, step)
    }
  }
  return false
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
    if (rule.const !== undefined && actual !== rule.const) return false
    if (Array.isArray(rule.enum) && !rule.enum.includes(actual)) return false
    if (typeof rule.pattern === 'string' && (typeof actual !== 'string' || !new RegExp(rule.pattern).test(actual)))
      return false
  }
  return true
}
