// Turns schema validation errors into "path: message" lines a person can act on. Shared by the config
// loader and the HTTP validation error formatter.

export interface SchemaError {
  readonly keyword: string
  readonly instancePath: string
  readonly message?: string
  readonly params?: unknown
}

/** `/providers/0/api_key` -> `providers[0].api_key` */
export function toDottedPath(instancePath: string, prefix = ''): string {
  let path = prefix
  for (const segment of instancePath.split('/').slice(1)) {
    const decoded = segment.replace(/~1/g, '/').replace(/~0/g, '~')
    if (/^\d+$/.test(decoded)) path += `[${decoded}]`
    else path += path === '' ? decoded : `.${decoded}`
  }
  return path
}

export function describeSchemaError(error: SchemaError, prefix = ''): string | null {
  const path = toDottedPath(error.instancePath, prefix)
  const params = (error.params ?? {}) as Record<string, unknown>
  // TypeBox reports an unknown property twice (the property's "schema is false" and the parent's
  // additionalProperties); keep only the readable one.
  if (error.keyword === 'boolean') return null
  if (error.keyword === 'additionalProperties') {
    const names = (params.additionalProperties as string[] | undefined) ?? [String(params.additionalProperty ?? '?')]
    return names.map((name) => `${path === '' ? name : `${path}.${name}`}: unknown field`).join('; ')
  }
  if (error.keyword === 'required') {
    const names = (params.requiredProperties as string[] | undefined) ?? [String(params.missingProperty ?? '?')]
    return names.map((name) => `${path === '' ? name : `${path}.${name}`}: is required`).join('; ')
  }
  if (error.keyword === 'enum' || error.keyword === 'const') {
    const allowed =
      (params.allowedValues as unknown[] | undefined) ??
      (params.allowedValue === undefined ? undefined : [params.allowedValue])
    if (allowed !== undefined)
      return `${path || '(root)'}: must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}`
  }
  return `${path || '(root)'}: ${error.message ?? 'is invalid'}`
}

export function formatSchemaErrors(errors: Iterable<SchemaError>, prefix = ''): string[] {
  const all = [...errors]
  const unionPaths = new Set(
    all.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf').map((error) => error.instancePath),
  )
  const lines = new Set<string>()
  for (const path of unionPaths)
    lines.add(
      describeUnionError(
        all.filter((error) => error.instancePath === path),
        prefix,
      ),
    )
  for (const error of all) {
    if (unionPaths.has(error.instancePath)) continue
    const line = describeSchemaError(error, prefix)
    if (line !== null) lines.add(line)
  }
  return [...lines]
}

const shapeKeywords = new Set(['anyOf', 'oneOf', 'type', 'const'])

/**
 * A value matched no branch of a union: when it has a branch's type but breaks one of its bounds (an array
 * over its maxItems in a nullable list), name that bound; otherwise name the accepted types or constants.
 */
function describeUnionError(errors: readonly SchemaError[], prefix: string): string {
  const path = toDottedPath(errors[0]?.instancePath ?? '', prefix) || '(root)'
  const broken = errors.find((error) => !shapeKeywords.has(error.keyword))
  const bound = broken === undefined ? null : describeSchemaError(broken, prefix)
  if (bound !== null) return bound
  const accepted: string[] = []
  for (const error of errors) {
    const params = (error.params ?? {}) as Record<string, unknown>
    if (error.keyword === 'type') accepted.push(String(params.type))
    if (error.keyword === 'const') accepted.push(JSON.stringify(params.allowedValue))
  }
  return accepted.length > 0 ? `${path}: must be ${accepted.join(' or ')}` : `${path}: does not match any allowed shape`
}
