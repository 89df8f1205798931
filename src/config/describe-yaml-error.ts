// A YAML syntax error as one line a person can act on: where it is, what the parser expected, and a hint
// for the usual cause, an unquoted ${VAR} inside a flow collection (`{ ... }` or `[ ... ]`), where the
// braces are YAML syntax. Only the first error is worth showing: the parser's later ones follow from it.
import type { YAMLError } from 'yaml'

const reference = /\$\{[^}\s]*\}/g
const quoted = /"(?:[^"\\]|\\.)*"|'[^']*'/g

export function describeYamlError(error: YAMLError, text: string): string {
  const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')
  const position = error.linePos?.[0]
  if (position === undefined) return `YAML syntax error: ${reason}`
  const line = text.split(/\r?\n/)[position.line - 1] ?? ''
  return `YAML syntax error at line ${position.line}, column ${position.col}: ${reason}${quoteHint(line, position.col)}`
}

/** The unquoted reference at or before the error's column (else the line's first), as a hint to quote it. */
function quoteHint(line: string, column: number): string {
  const unquoted = line.replace(quoted, (text) => ' '.repeat(text.length))
  const references = [...unquoted.matchAll(reference)]
  const before = references.filter((match) => match.index < column)
  const chosen = before.at(-1) ?? references[0]
  if (chosen === undefined) return ''
  return `; quote the value: "${chosen[0]}" (in { } and [ ], braces are YAML syntax)`
}
