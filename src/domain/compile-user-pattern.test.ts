import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { compileUserPattern, type UserPattern } from './compile-user-pattern.ts'

function compiled(source: string): UserPattern {
  const result = compileUserPattern(source)
  if ('error' in result) throw new Error(`${source}: ${result.error}`)
  return result.pattern
}

function refusal(source: string): string {
  const result = compileUserPattern(source)
  assert.ok('error' in result, `${source} should be refused`)
  return result.error
}

/** What JavaScript finds: every non-empty match of the pattern with the global flag. */
function javascriptSpans(source: string, text: string): { start: number; end: number }[] {
  return [...text.matchAll(new RegExp(source, 'g'))]
    .filter((match) => match[0] !== '')
    .map((match) => ({ start: match.index, end: match.index + match[0].length }))
}

// A backtracking engine needs about 2^10000 steps for these inputs; a linear one a few milliseconds.
// The bound only separates "finishes" from "never finishes".
test('nested quantifiers over a long text answer in linear time', () => {
  const started = performance.now()
  assert.equal(compiled('^(a+)+$').test(`${'a'.repeat(10_000)}!`), false)
  assert.deepEqual(compiled('(a+)+b').findSpans('a'.repeat(10_000)), [])
  assert.deepEqual(compiled('(a|aa)+$').findSpans(`${'a'.repeat(10_000)}!`), [])
  assert.ok(performance.now() - started < 2_000)
})

test('backreferences and lookaround are refused with the reason', () => {
  for (const source of ['(a)\\1', '(?<word>a)\\k<word>'])
    assert.match(refusal(source), /backreference .* not supported/)
  for (const source of ['a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b'])
    assert.match(refusal(source), /lookaround "\(\?<?[=!]" is not supported/)
  assert.match(refusal('(?s).'), /s flag is not supported/)
  assert.match(refusal('a(b'), /missing closing \)/)
  assert.match(refusal('a{1001}'), /invalid repeat count/)
})

test('\\s, \\S, . and their class forms match the same characters as in JavaScript', () => {
  const sources = ['\\s', '\\S', '[\\s]', '[\\S]', '[^\\s]', '[^\\S]', '.', '[.]']
  const patterns = sources.map((source) => ({ source, pattern: compiled(source), native: new RegExp(source) }))
  for (let code = 0; code <= 0xffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue
    const character = String.fromCharCode(code)
    for (const { source, pattern, native } of patterns)
      assert.equal(pattern.test(character), native.test(character), `${source} on U+${code.toString(16)}`)
  }
})

test('JavaScript escapes keep their JavaScript meaning', () => {
  const cases: [source: string, text: string][] = [
    ['\\u00e9t\\u00e9', 'un été chaud'],
    ['\\uD83D\\uDE00', 'hi 😀!'],
    ['\\x41\\cJ', 'xA\ny'],
    ['\\A\\p{L}', 'Ap{L} and A'],
    ['[\\b]x', 'a\bx'],
    ['[]a|[^]b', 'ab\nb'],
    ['[[:alpha:]]', 'a:]'],
    ['\\c1', 'x\\c1'],
    ['(?<name>ab)c', 'xxabc'],
  ]
  for (const [source, text] of cases)
    assert.deepEqual(compiled(source).findSpans(text), javascriptSpans(source, text), source)
})

test('case-insensitive matching is available as the (?i) flag', () => {
  assert.deepEqual(compiled('(?i)acme').findSpans('Acme ACME acme'), [
    { start: 0, end: 4 },
    { start: 5, end: 9 },
    { start: 10, end: 14 },
  ])
})

// JavaScript refuses a repetition of a group that matched the empty string and backtracks into the group
// for a longer match; RE2 (like Perl) keeps the empty repetition. Repeated groups that can match empty
// are left out here: there the two engines may disagree (docs/workspaces.md says so).
// Without its assertions (^, $, \b, \B) a pattern matches the empty string wherever it can anywhere.
function canBeEmpty(source: string): boolean {
  const withoutAssertions = source.replace(/\\[bB]|(?<!\[)\^|\$/g, '')
  return new RegExp(`^(?:${withoutAssertions})$`).test('')
}

const atoms = [
  'a',
  'b',
  ' ',
  '-',
  '.',
  '\\s',
  '\\S',
  '\\d',
  '\\w',
  '\\W',
  '\\u0061',
  '\\x62',
  '\\.',
  '[ab]',
  '[^a]',
  '[\\s]',
  '[^\\S]',
  '[a-c]',
  '[]',
  '[^]',
]
const assertions = ['^', '$', '\\b', '\\B']
const quantifiers = ['', '', '*', '+', '?', '*?', '+?', '??', '{1,2}', '{2}', '{0,}?']

const { pattern: patternArbitrary } = fc.letrec<{ pattern: string; term: string }>((tie) => ({
  pattern: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.array(tie('term'), { minLength: 1, maxLength: 4 }).map((terms) => terms.join('')),
    fc.tuple(tie('pattern'), tie('pattern')).map(([left, right]) => `${left}|${right}`),
  ),
  term: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.constantFrom(...atoms), fc.constantFrom(...quantifiers)).map(([atom, quantifier]) => atom + quantifier),
    fc.constantFrom(...assertions),
    fc
      .tuple(fc.constantFrom('(', '(?:'), tie('pattern'), fc.constantFrom(...quantifiers))
      .map(([opening, inner, quantifier]) => `${opening}${inner})${canBeEmpty(inner) ? '' : quantifier}`),
  ),
}))

const textArbitrary = fc
  .array(fc.constantFrom('a', 'b', 'c', ' ', '\u00a0', '\u2028', '\r', '\n', '\t', '1', 'A', '_', '-', '.', '\b'), {
    maxLength: 24,
  })
  .map((characters) => characters.join(''))

test('any pattern of the shared syntax finds the same spans as JavaScript', () => {
  fc.assert(
    fc.property(patternArbitrary, textArbitrary, (source, text) => {
      assert.deepEqual(compiled(source).findSpans(text), javascriptSpans(source, text), source)
    }),
    { numRuns: 1_000 },
  )
})
