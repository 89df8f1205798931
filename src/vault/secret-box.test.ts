import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { SecretBox } from './secret-box.ts'

test('sealed values open only with the same key and associated data', () => {
  const box = new SecretBox(randomBytes(32))
  const sealed = box.seal('hunter2', 'vault-1')
  assert.ok(!sealed.includes('hunter2'))
  assert.equal(box.openText(sealed, 'vault-1'), 'hunter2')
  assert.throws(() => box.open(sealed, 'vault-2'))
  assert.throws(() => new SecretBox(randomBytes(32)).open(sealed, 'vault-1'))
  assert.notEqual(box.seal('hunter2', 'vault-1'), sealed, 'a fresh IV per seal')
  const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA')
  assert.throws(() => box.open(tampered, 'vault-1'))
})
