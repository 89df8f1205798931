// The request validator: TypeBox's, over schemas whose every check costs time linear in the input, with
// the size bounds checked first. A refusal must stay as cheap as an acceptance, or one hostile body holds
// the event loop: TypeBox reports `uniqueItems` failures in quadratic time (100,000 names took minutes),
// so a schema with it is refused at start-up (bound the array with maxItems, check uniqueness in the
// service); every `pattern` needs a `maxLength`, so no regex runs over an over-long string; and an
// over-long array or string is refused before TypeBox walks what it holds (see size-bounds.ts).
import type { FastifySchemaCompiler } from 'fastify'
import type { TSchema } from 'typebox'
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox'
import { exceededBound, sizeBoundsOf } from './size-bounds.ts'

export const boundedValidatorCompiler: FastifySchemaCompiler<TSchema> = (route) => {
  const problems = unboundedChecks(route.schema, route.httpPart ?? 'schema')
  if (problems.length > 0) {
    throw new Error(`${route.method} ${route.url}: request schema with unbounded checks: ${problems.join('; ')}`)
  }
  const bounds = sizeBoundsOf(route.schema)
  const validate = TypeBoxValidatorCompiler(route)
  return (value) => {
    const exceeded = exceededBound(bounds, value)
    return exceeded === null ? validate(value) : { error: [exceeded] }
  }
}

/** Where a schema asks for a check whose cost is not linear in the input, as "path: what to change" lines. */
export function unboundedChecks(schema: unknown, path: string): string[] {
  if (typeof schema !== 'object' || schema === null) return []
  if (Array.isArray(schema)) return schema.flatMap((item, index) => unboundedChecks(item, `${path}[${index}]`))
  const node = schema as Record<string, unknown>
  const problems: string[] = []
  if (node.uniqueItems === true) {
    problems.push(`${path}: drop uniqueItems (quadratic on refusal); bound with maxItems, check uniqueness in code`)
  }
  if (typeof node.pattern === 'string' && typeof node.maxLength !== 'number') {
    problems.push(`${path}: pattern without maxLength; give the string a maxLength`)
  }
  for (const [key, value] of Object.entries(node)) problems.push(...unboundedChecks(value, `${path}.${key}`))
  return problems
}
