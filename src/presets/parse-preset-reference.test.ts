import { test } from 'node:test'
import assert from 'node:assert/strict'
import { GatewayError } from '../domain/errors.ts'
import { parsePresetReference } from './apply-preset.ts'

function refused(run: () => unknown, message: RegExp): void {
  assert.throws(
    run,
    (error: unknown) => error instanceof GatewayError && error.status === 400 && message.test(error.message),
  )
}

test('a bare @preset/<slug> names the preset and no model', () => {
  assert.deepEqual(parsePresetReference('@preset/support-bot'), { slug: 'support-bot', model: null })
})

test('<model>@preset/<slug> names both', () => {
  assert.deepEqual(parsePresetReference('openai/gpt-4o@preset/support-bot'), {
    slug: 'support-bot',
    model: 'openai/gpt-4o',
  })
  assert.deepEqual(parsePresetReference('openai/gpt-4o:free@preset/x1'), { slug: 'x1', model: 'openai/gpt-4o:free' })
})

test('a preset field names the preset beside any model', () => {
  assert.deepEqual(parsePresetReference('anthropic/claude', 'coder'), { slug: 'coder', model: 'anthropic/claude' })
  assert.deepEqual(parsePresetReference('', 'coder'), { slug: 'coder', model: null })
  assert.deepEqual(parsePresetReference('m', '@preset/coder'), { slug: 'coder', model: 'm' })
})

test('the same preset in model and field is accepted; two different ones are refused', () => {
  assert.deepEqual(parsePresetReference('@preset/a', 'a'), { slug: 'a', model: null })
  refused(() => parsePresetReference('@preset/a', 'b'), /two presets: "a" in `model` and "b"/)
})

test('no reference -> null', () => {
  assert.equal(parsePresetReference('openai/gpt-4o'), null)
  assert.equal(parsePresetReference(''), null)
  assert.equal(parsePresetReference('openai/preset-model'), null)
})

test('malformed slugs are refused with the rule', () => {
  refused(() => parsePresetReference('@preset/'), /not a preset slug; a preset slug is 1 to 64/)
  refused(() => parsePresetReference('m@preset/Upper'), /"Upper" is not a preset slug/)
  refused(() => parsePresetReference('m@preset/a--b'), /not a preset slug/)
  refused(() => parsePresetReference('m@preset/-a'), /not a preset slug/)
  refused(() => parsePresetReference('m@preset/a/b'), /not a preset slug/)
  refused(() => parsePresetReference('m', 'a b'), /in `preset`/)
  refused(() => parsePresetReference('m', ''), /in `preset`/)
  refused(() => parsePresetReference(`@preset/${'a'.repeat(65)}`), /not a preset slug/)
  assert.deepEqual(parsePresetReference(`@preset/${'a'.repeat(64)}`), { slug: 'a'.repeat(64), model: null })
})
