import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { Type, type TSchema } from 'typebox'
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox'
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify'
import { boundedValidatorCompiler } from './bounded-validator-compiler.ts'
import { formatSchemaErrors } from '../config/format-schema-errors.ts'

const Names = Type.Object({
  names: Type.Array(Type.String({ minLength: 1, maxLength: 8, pattern: '^[a-z]+$' }), { minItems: 1, maxItems: 100 }),
})

interface Verdict {
  readonly errors: readonly FastifySchemaValidationError[] | undefined
}

function validatorFor(schema: TSchema, compiler: FastifySchemaCompiler<TSchema> = boundedValidatorCompiler) {
  const validate = compiler({ schema, method: 'POST', url: '/things', httpPart: 'body' })
  return (value: unknown): Verdict => {
    const result = validate(value)
    assert.ok(typeof result === 'object' && !('then' in result), 'a synchronous result object')
    return { errors: result.error as FastifySchemaValidationError[] | undefined }
  }
}

/** An array of `length` names that counts how many of its items validation reads. */
function countingNames(length: number): { readonly names: string[]; readonly reads: () => number } {
  let reads = 0
  const names = new Proxy(
    Array.from({ length }, () => 'x'),
    {
      get(target, property, receiver) {
        if (typeof property === 'string' && /^\d+$/.test(property)) reads += 1
        return Reflect.get(target, property, receiver)
      },
    },
  )
  return { names, reads: () => reads }
}

test('a schema with uniqueItems or a pattern without maxLength is refused when its route is built', () => {
  assert.throws(
    () =>
      validatorFor(Type.Object({ ids: Type.Array(Type.String({ maxLength: 9 }), { maxItems: 5, uniqueItems: true }) })),
    /POST \/things: .*body\.properties\.ids: drop uniqueItems/,
  )
  assert.throws(
    () => validatorFor(Type.Object({ id: Type.String({ pattern: '^[a-z]+$' }) })),
    /body\.properties\.id: pattern without maxLength/,
  )
  assert.doesNotThrow(() => validatorFor(Names))
})

test('an array past maxItems is refused without reading one of its items', () => {
  const bounded = countingNames(100_000)
  const verdict = validatorFor(Names)({ names: bounded.names })
  assert.deepEqual(formatSchemaErrors(verdict.errors ?? [], 'body'), ['body.names: must not have more than 100 items'])
  assert.equal(bounded.reads(), 0)

  // TypeBox alone reads every item (several times) before it reports the count.
  const unbounded = countingNames(100_000)
  validatorFor(Names, TypeBoxValidatorCompiler)({ names: unbounded.names })
  assert.ok(unbounded.reads() >= 100_000, `TypeBox read ${unbounded.reads()} items`)
})

test('a string certainly past maxLength is refused by its length alone, with no pattern error', () => {
  const validate = validatorFor(
    Type.Object({ outer: Type.Object({ id: Type.String({ maxLength: 8, pattern: '^[a-z]+$' }) }) }),
  )
  const verdict = validate({ outer: { id: 'A'.repeat(17) } })
  assert.deepEqual(formatSchemaErrors(verdict.errors ?? [], 'body'), [
    'body.outer.id: must not have more than 8 characters',
  ])
})

test('within its bounds a value is validated as TypeBox validates it', () => {
  const validate = validatorFor(Names)
  assert.equal(validate({ names: ['abc'] }).errors, undefined)
  assert.deepEqual(formatSchemaErrors(validate({ names: ['ABC'] }).errors ?? [], 'body'), [
    'body.names[0]: must match pattern "^[a-z]+$"',
  ])
})

test('the bounds checked first never change a verdict, only its cost', () => {
  const bounded = validatorFor(Names)
  const plain = validatorFor(Names, TypeBoxValidatorCompiler)
  const value = fc.oneof(
    fc.record({ names: fc.array(fc.string({ maxLength: 20 }), { maxLength: 250 }) }),
    fc.record({ names: fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.constant(null)) }),
    fc.anything(),
  )
  fc.assert(
    fc.property(value, (body) => {
      assert.equal(bounded(body).errors === undefined, plain(body).errors === undefined)
    }),
    { numRuns: 500 },
  )
})
