// Rewrites a JavaScript regular expression (no flags, not in unicode mode) into RE2 syntax with the
// same meaning, so that a pattern users wrote for JavaScript matches the same text on a linear-time
// engine. What RE2 cannot run in linear time (backreferences, lookaround) is refused with a reason.
// Spelled differently in RE2: `\s` (JavaScript also counts Unicode spaces), `.` (JavaScript also stops
// at \r, U+2028, U+2029), `\uXXXX`, `\cX`, `[]`, `[^]`, `\b` in a class (backspace), `[` in a class, and
// escaped letters JavaScript reads as the letter itself (`\A` is "A", `\p` is "p").

const whitespace = String.raw`\t\n\x0B\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`
const nonWhitespace =
  String.raw`\x00-\x08\x0E-\x1F!-\x{9F}\x{A1}-\x{167F}\x{1681}-\x{1FFF}\x{200B}-\x{2027}\x{202A}-\x{202E}` +
  String.raw`\x{2030}-\x{205E}\x{2060}-\x{2FFF}\x{3001}-\x{FEFE}\x{FF00}-\x{10FFFF}`
const anyCharacter = String.raw`[\x00-\x{10FFFF}]`
const noCharacter = String.raw`[^\x00-\x{10FFFF}]`
const notLineTerminator = String.raw`[^\n\r\x{2028}\x{2029}]`

/** Escapes that mean the same in both engines, outside and inside a class. */
const sameMeaning = new Set(['d', 'D', 'w', 'W', 'n', 'r', 't', 'f', 'v', '0'])
const lookaround = ['(?=', '(?!', '(?<=', '(?<!']
const codeUnitOutsideClass = /^(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|c[A-Za-z])/
/** An RE2 flag group that turns on `s`, which would let `.` (rewritten above) ignore it. */
const dotAllFlag = /^\(\?[A-Za-z]*s[A-Za-z]*(?:-[A-Za-z]*)?[:)]/

export type Re2Translation = { readonly source: string } | { readonly error: string }

export function toRe2Syntax(pattern: string): Re2Translation {
  const hasNamedGroups = /\(\?<[A-Za-z_$]/.test(pattern)
  let output = ''
  let inClass = false
  let index = 0
  while (index < pattern.length) {
    const character = pattern[index]!
    if (character === '\\') {
      const escape = translateEscape(pattern, index, inClass, hasNamedGroups)
      if ('error' in escape) return escape
      output += escape.text
      index += escape.length
      continue
    }
    if (inClass) {
      if (character === ']') inClass = false
      output += character === '[' ? '\\[' : character
      index++
      continue
    }
    const refused = lookaround.find((opening) => pattern.startsWith(opening, index))
    if (refused !== undefined)
      return { error: `lookaround "${refused}" is not supported (it cannot run in linear time); match without it` }
    if (dotAllFlag.test(pattern.slice(index, index + 12)))
      return { error: 'the s flag is not supported: write [\\s\\S] for any character, newlines included' }
    if (pattern.startsWith('[]', index) || pattern.startsWith('[^]', index)) {
      output += pattern[index + 1] === ']' ? noCharacter : anyCharacter
      index += pattern[index + 1] === ']' ? 2 : 3
      continue
    }
    if (character === '[') {
      inClass = true
      const negated = pattern[index + 1] === '^'
      output += negated ? '[^' : '['
      index += negated ? 2 : 1
      continue
    }
    output += character === '.' ? notLineTerminator : character
    index++
  }
  return { source: output }
}

interface TranslatedEscape {
  readonly text: string
  /** Characters of the pattern consumed, the backslash included. */
  readonly length: number
}

function translateEscape(
  pattern: string,
  index: number,
  inClass: boolean,
  hasNamedGroups: boolean,
): TranslatedEscape | { error: string } {
  const next = pattern.codePointAt(index + 1)
  if (next === undefined) return { text: '\\', length: 1 }
  const letter = String.fromCodePoint(next)
  if (letter === 's') return { text: inClass ? whitespace : `[${whitespace}]`, length: 2 }
  if (letter === 'S') return { text: inClass ? nonWhitespace : `[^${whitespace}]`, length: 2 }
  if (letter === 'b' || letter === 'B')
    return { text: inClass ? (letter === 'b' ? '\\x08' : 'B') : `\\${letter}`, length: 2 }
  if (/[1-9]/.test(letter) && !inClass)
    return { error: `backreference "\\${letter}" is not supported (it cannot run in linear time); match without it` }
  if (letter === 'k' && hasNamedGroups && !inClass)
    return { error: 'backreference "\\k<name>" is not supported (it cannot run in linear time); match without it' }
  if (sameMeaning.has(letter) || /[1-9]/.test(letter)) return { text: `\\${letter}`, length: 2 }
  const codeUnit = (inClass ? /^(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|c[A-Za-z0-9_])/ : codeUnitOutsideClass).exec(
    pattern.slice(index + 1, index + 6),
  )?.[0]
  if (codeUnit !== undefined)
    return {
      text: codeUnitEscape(pattern, index, codeUnit),
      length: codeUnit.length + 1 + pairedLength(pattern, index, codeUnit),
    }
  // JavaScript reads a `\c` that starts no control escape as a backslash followed by "c".
  if (letter === 'c') return { text: '\\\\c', length: 2 }
  if (/[A-Za-z]/.test(letter)) return { text: letter, length: 2 }
  if (next > 0x7f) return { text: `\\x{${next.toString(16)}}`, length: 1 + letter.length }
  return { text: `\\${letter}`, length: 2 }
}

/** A `\uD83D\uDE00` pair names one character: RE2 takes it as one code point. */
function surrogatePair(pattern: string, index: number, hex: string): number | null {
  if (!/^u[dD][89abAB]/.test(hex)) return null
  const low = /^\\u([dD][c-fC-F][0-9A-Fa-f]{2})/.exec(pattern.slice(index + 6, index + 12))?.[1]
  if (low === undefined) return null
  const high = Number.parseInt(hex.slice(1), 16)
  return (high - 0xd800) * 0x400 + (Number.parseInt(low, 16) - 0xdc00) + 0x10000
}

function pairedLength(pattern: string, index: number, hex: string): number {
  return surrogatePair(pattern, index, hex) === null ? 0 : 6
}

function codeUnitEscape(pattern: string, index: number, hex: string): string {
  const pair = surrogatePair(pattern, index, hex)
  if (pair !== null) return `\\x{${pair.toString(16)}}`
  const code = hex[0] === 'c' ? hex.charCodeAt(1) % 32 : Number.parseInt(hex.slice(1), 16)
  return `\\x{${code.toString(16)}}`
}
