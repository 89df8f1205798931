import { test } from 'node:test'
import assert from 'node:assert/strict'
import { alignmentSettingsOf } from './alignment-settings.ts'

test('no plugins, other plugins, or a null plugins list: no alignment', () => {
  assert.equal(alignmentSettingsOf({ messages: [] }), null)
  assert.equal(alignmentSettingsOf({ plugins: null }), null)
  assert.equal(alignmentSettingsOf({ plugins: [{ id: 'web' }] }), null)
})

test('the SDK defaults fill what the plugin entry leaves out', () => {
  assert.deepEqual(alignmentSettingsOf({ plugins: [{ id: 'web' }, { id: 'alignment', rules: ['Be kind.'] }] }), {
    rules: ['Be kind.'],
    mode: 'enforce',
    threshold: 0.7,
    instruct: true,
    maxRetries: 1,
  })
  assert.deepEqual(
    alignmentSettingsOf({
      plugins: [{ id: 'alignment', rules: [], mode: 'audit', threshold: 0.5, instruct: false, max_retries: 0 }],
    }),
    { rules: [], mode: 'audit', threshold: 0.5, instruct: false, maxRetries: 0 },
  )
})

test('each bad setting is refused naming its field', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{}, /^plugins\[0\]\.rules: is required/],
    [{ rules: 'x' }, /^plugins\[0\]\.rules: is required/],
    [{ rules: Array.from({ length: 33 }, () => 'r') }, /^plugins\[0\]\.rules: must not have more than 32 items/],
    [{ rules: ['ok', ' '] }, /^plugins\[0\]\.rules\[1\]: must be a non-empty string/],
    [{ rules: ['x'.repeat(2001)] }, /^plugins\[0\]\.rules\[0\]: must be at most 2000 characters/],
    [{ rules: [], threshold: 0 }, /^plugins\[0\]\.threshold: /],
    [{ rules: [], threshold: '0.5' }, /^plugins\[0\]\.threshold: /],
    [{ rules: [], mode: 'strict' }, /^plugins\[0\]\.mode: must be "enforce" or "audit"/],
    [{ rules: [], instruct: 'yes' }, /^plugins\[0\]\.instruct: must be a boolean/],
    [{ rules: [], max_retries: 1.5 }, /^plugins\[0\]\.max_retries: must be an integer from 0 to 5/],
    [{ rules: [], maxRetries: 2 }, /^plugins\[0\]\.maxRetries: unknown alignment setting/],
  ]
  for (const [settings, message] of cases)
    assert.throws(() => alignmentSettingsOf({ plugins: [{ id: 'alignment', ...settings }] }), { message })
})
