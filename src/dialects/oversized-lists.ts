// Finds the lists of a body that exceed their schema's maxItems without reading their items: TypeBox's
// error walk visits every item of every list (tens of microseconds each), so a body of a million
// entries over a 32-item bound would hold the event loop for seconds before the bound was named.

import type { TSchema } from 'typebox'
import { toFieldPath } from './schema-check.ts'
import { arrayBranches, objectBranches, type SchemaNode } from './schema-branches.ts'

/** One message per list over its bound (`models: must not have more than 32 items`), in body order. */
export function oversizedLists(schema: TSchema, body: unknown): string[] {
  const found: string[] = []
  visit(schema as SchemaNode, body, '', found)
  return found
}

function visit(node: SchemaNode, value: unknown, path: string, found: string[]): void {
  if (Array.isArray(value)) {
    const branches = arrayBranches(node)
    // In a union of lists (embeddings' strings, tokens, token lists), the first item says which is meant.
    const meant = branches.filter((branch) => matchesKind(branch.items, value[0]))
    const bounds = (meant.length > 0 ? meant : branches).map((branch) => branch.maxItems ?? Infinity)
    const bound = Math.max(...bounds)
    if (bounds.length > 0 && value.length > bound) {
      found.push(`${toFieldPath(path) || '(body)'}: must not have more than ${bound} items`)
    }
    return
  }
  if (typeof value !== 'object' || value === null) return
  for (const branch of objectBranches(node)) {
    for (const [key, child] of Object.entries(branch.properties ?? {})) {
      const field = (value as Record<string, unknown>)[key]
      if (field !== undefined) visit(child, field, `${path}/${key}`, found)
    }
  }
}

function matchesKind(items: SchemaNode | undefined, sample: unknown): boolean {
  if (items === undefined || typeof items.type !== 'string') return true
  if (Array.isArray(sample)) return items.type === 'array'
  if (typeof sample === 'number') return items.type === 'number' || items.type === 'integer'
  if (sample === null) return items.type === 'null'
  return items.type === typeof sample
}
