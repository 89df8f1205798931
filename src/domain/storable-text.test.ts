import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { isStorableText, toStorableText } from './storable-text.ts'

test('NUL and unpaired surrogates are unstorable and become U+FFFD; pairs and ordinary text are kept', () => {
  assert.equal(toStorableText('a\u0000b'), 'a\uFFFDb')
  assert.equal(toStorableText('\uD800x\uDC00'), '\uFFFDx\uFFFD')
  assert.equal(toStorableText('end\uD83D'), 'end\uFFFD')
  assert.equal(toStorableText('\uDE00start'), '\uFFFDstart')
  assert.equal(toStorableText('emoji \uD83D\uDE00 ok'), 'emoji \uD83D\uDE00 ok')
  assert.equal(toStorableText('\uFFFD already'), '\uFFFD already')
  assert.equal(isStorableText('a\u0000'), false)
  assert.equal(isStorableText('\uDBFF'), false)
  assert.equal(isStorableText('\uD83D\uDE00'), true)
  assert.equal(isStorableText('plain'), true)
})

test('toStorableText keeps the length, yields storable text, and keeps storable text unchanged', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom('a', 'é', '\u0000', '\uD800', '\uDC00', '\uD83D', '\uDE00') }),
      (text) => {
        const stored = toStorableText(text)
        assert.equal(stored.length, text.length)
        assert.ok(isStorableText(stored))
        assert.equal(Buffer.from(stored, 'utf8').toString('utf8'), stored, 'survives a UTF-8 round trip')
        assert.ok(!stored.includes('\u0000'))
        if (isStorableText(text)) assert.equal(stored, text)
        else assert.notEqual(stored, text)
      },
    ),
  )
})
