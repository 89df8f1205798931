// The size limits of a request schema that can be read without walking the value: maxItems and
// maxLength on the schema itself and on its object properties, however deep. Checked before the full
// validation, an over-long array or string is refused after a few property reads, whatever it holds
// (TypeBox checks every item first, and collects its error report over all of them).

export interface SizeBound {
  /** Property names from the root to the bounded value. */
  readonly path: readonly string[]
  readonly keyword: 'maxItems' | 'maxLength'
  readonly limit: number
}

/** What fastify reports for a failed check, in TypeBox's words for the same keyword. */
export interface ExceededBound {
  readonly keyword: SizeBound['keyword']
  readonly instancePath: string
  readonly schemaPath: string
  readonly params: { readonly limit: number }
  readonly message: string
}

/** The bounds of a schema reachable through object properties alone (not inside unions or array items). */
export function sizeBoundsOf(schema: unknown, path: readonly string[] = []): SizeBound[] {
  if (typeof schema !== 'object' || schema === null) return []
  const node = schema as Record<string, unknown>
  const bounds: SizeBound[] = []
  if (typeof node.maxItems === 'number') bounds.push({ path, keyword: 'maxItems', limit: node.maxItems })
  if (typeof node.maxLength === 'number') bounds.push({ path, keyword: 'maxLength', limit: node.maxLength })
  if (node.type === 'object' && typeof node.properties === 'object' && node.properties !== null) {
    for (const [name, property] of Object.entries(node.properties))
      bounds.push(...sizeBoundsOf(property, [...path, name]))
  }
  return bounds
}

/** The first bound the value certainly exceeds, or null (then the full validation decides). */
export function exceededBound(bounds: readonly SizeBound[], value: unknown): ExceededBound | null {
  for (const bound of bounds) {
    const found = valueAt(value, bound.path)
    if (bound.keyword === 'maxItems' && Array.isArray(found) && found.length > bound.limit) {
      return describe(bound, `must not have more than ${bound.limit} items`)
    }
    // maxLength counts code points, at least half the UTF-16 length: past twice the limit is certainly over.
    if (bound.keyword === 'maxLength' && typeof found === 'string' && found.length > 2 * bound.limit) {
      return describe(bound, `must not have more than ${bound.limit} characters`)
    }
  }
  return null
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value
  for (const name of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined
    if (!Object.hasOwn(current, name)) return undefined
    current = (current as Record<string, unknown>)[name]
  }
  return current
}

function describe(bound: SizeBound, message: string): ExceededBound {
  const instancePath = bound.path.map((name) => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')
  const schemaPath = `#${bound.path.map((name) => `/properties/${name}`).join('')}/${bound.keyword}`
  return { keyword: bound.keyword, instancePath, schemaPath, params: { limit: bound.limit }, message }
}
