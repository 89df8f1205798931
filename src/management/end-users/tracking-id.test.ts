import { test } from 'node:test'
import assert from 'node:assert/strict'
import { countCodePoints, isDotSegment, trackingIdProblem } from './tracking-id.ts'

test('ordinary, emoji, combining-mark and case-distinct strings are accepted', () => {
  for (const value of [
    'user-1',
    'User-1',
    '👩‍💻',
    'e\u0301',
    'é',
    'a b',
    '.',
    '..',
    'a/b?c#d%',
    'x'.repeat(512),
    '😀'.repeat(512),
  ]) {
    assert.equal(trackingIdProblem(value), null, value.slice(0, 20))
  }
})

test('length counts code points: 512 emoji pass, 513 characters fail', () => {
  assert.equal(countCodePoints('😀'.repeat(512)), 512)
  assert.equal('😀'.repeat(512).length, 1024)
  assert.match(trackingIdProblem('x'.repeat(513)) ?? '', /at most 512 characters \(Unicode code points\); it has 513/)
  assert.match(trackingIdProblem('😀'.repeat(513)) ?? '', /it has 513/)
})

test('empty, lone surrogates, NUL and surrounding whitespace are refused', () => {
  assert.match(trackingIdProblem('') ?? '', /empty/)
  assert.match(trackingIdProblem('a\uD800') ?? '', /lone surrogate/)
  assert.match(trackingIdProblem('\uDC00b') ?? '', /lone surrogate/)
  assert.match(trackingIdProblem('a\u0000b') ?? '', /NUL/)
  for (const value of [' a', 'a ', '\ta', 'a\n', '\u00A0a', 'a\u3000'])
    assert.match(trackingIdProblem(value) ?? '', /whitespace/, JSON.stringify(value))
})

test('only "." and ".." are dot segments', () => {
  assert.equal(isDotSegment('.'), true)
  assert.equal(isDotSegment('..'), true)
  assert.equal(isDotSegment('...'), false)
  assert.equal(isDotSegment('.a'), false)
})
