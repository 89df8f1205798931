// Any body over a documented limit is refused and any body at or under it passes, in every dialect
// that accepts the field.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { GatewayError } from '../domain/errors.ts'
import { createDialectRegistry } from './registry.ts'

const dialects = createDialectRegistry()
const bodies = {
  'openai-responses': { model: 'm', input: 'x' },
  'openai-chat': { model: 'm', messages: [{ role: 'user', content: 'x' }] },
  'anthropic-messages': { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] },
}

function accepts(name: keyof typeof bodies, fields: Record<string, unknown>): boolean {
  try {
    dialects[name].decode({ ...bodies[name], ...fields })
    return true
  } catch (error) {
    assert.ok(error instanceof GatewayError && error.kind === 'invalid_request', String(error))
    return false
  }
}

test('session_id is accepted up to 256 characters in every dialect', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 400 }),
      fc.constantFrom(...(Object.keys(bodies) as (keyof typeof bodies)[])),
      (length, name) => {
        assert.equal(accepts(name, { session_id: 's'.repeat(length) }), length <= 256)
      },
    ),
  )
})

test('metadata: pair count, key length and value length each refused exactly past their limit', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 24 }),
      fc.integer({ min: 1, max: 90 }),
      fc.integer({ min: 0, max: 700 }),
      (pairs, keyLength, valueLength) => {
        const metadata = Object.fromEntries(
          Array.from({ length: pairs }, (_, index) => [`${index}`.padStart(keyLength, 'k'), 'v'.repeat(valueLength)]),
        )
        const expected = pairs <= 16 && (pairs === 0 || (keyLength <= 64 && valueLength <= 512))
        assert.equal(accepts('openai-responses', { metadata }), expected)
        assert.equal(accepts('openai-chat', { metadata }), expected)
      },
    ),
  )
})

test('max_tool_calls is accepted from 1 to 30', () => {
  fc.assert(
    fc.property(fc.integer({ min: -5, max: 60 }), (count) => {
      assert.equal(accepts('openai-responses', { max_tool_calls: count }), count >= 1 && count <= 30)
    }),
  )
})

test('models (the fallback list) is accepted up to 32 entries in every dialect', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 80 }),
      fc.constantFrom(...(Object.keys(bodies) as (keyof typeof bodies)[])),
      (count, name) => {
        const models = Array.from({ length: count }, (_, index) => `vendor/model-${index}`)
        assert.equal(accepts(name, { models }), count <= 32)
      },
    ),
  )
})
