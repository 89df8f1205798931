// Regular expressions that users store (guardrail content filters, observability filter rules) run on
// RE2 (re2js), whose matching time is linear in the text: no pattern can hold the event loop, however
// it nests. Users write JavaScript syntax; to-re2-syntax.ts keeps its meaning and refuses what RE2
// cannot run (backreferences, lookaround).
import { RE2JS } from 're2js'
import { toRe2Syntax } from './to-re2-syntax.ts'

export interface UserPattern {
  /** Whether the pattern matches anywhere in the text. */
  test(text: string): boolean
  /** Every non-empty match, left to right, as UTF-16 offsets (the indices of String.prototype.slice). */
  findSpans(text: string): { readonly start: number; readonly end: number }[]
}

/** The compiled pattern, or the reason it cannot be used (said so that the writer can fix it). */
export type CompiledUserPattern = { readonly pattern: UserPattern } | { readonly error: string }

export function compileUserPattern(pattern: string): CompiledUserPattern {
  const translated = toRe2Syntax(pattern)
  if ('error' in translated) return translated
  let compiled: RE2JS
  try {
    compiled = RE2JS.compile(translated.source)
  } catch (error) {
    return { error: (error instanceof Error ? error.message : String(error)).replace(/^error parsing regexp: /, '') }
  }
  return {
    pattern: {
      test: (text) => compiled.test(text),
      findSpans: (text) => {
        const spans: { start: number; end: number }[] = []
        for (const match of compiled.matchAll(text)) {
          // re2js types `index` as optional, like RegExpMatchArray; matchAll always sets it.
          const start = match.index ?? 0
          if (match[0] !== '') spans.push({ start, end: start + match[0].length })
        }
        return spans
      },
    },
  }
}
