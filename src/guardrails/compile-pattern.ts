// Custom content-filter patterns are JavaScript regular expressions, compiled with the global flag.

/** The compiled pattern, or the reason it is not a valid regular expression. */
export function compilePattern(pattern: string): { regex: RegExp } | { error: string } {
  try {
    return { regex: new RegExp(pattern, 'g') }
  } catch (error) {
    return { error: (error as Error).message }
  }
}
