// The end-user tracking string: 1 to 512 Unicode code points (not UTF-16 units, not bytes: an emoji
// counts as one), well-formed (no lone surrogates), no NUL, no leading or trailing whitespace,
// compared exactly (case-sensitive, no normalization: "é" precomposed and "e" + U+0301 are two ids).

export const trackingIdMaxCodePoints = 512

/** With the `u` flag a surrogate pair is one code point, so this matches only unpaired halves. */
const loneSurrogate = /[\uD800-\uDFFF]/u

/** "." and ".." are valid tracking strings, but URL normalization removes them from paths. */
export function isDotSegment(trackingId: string): boolean {
  return trackingId === '.' || trackingId === '..'
}

export function countCodePoints(value: string): number {
  let count = 0
  for (const _ of value) count += 1
  return count
}

/** Returns what is wrong with a tracking string, or null when it is acceptable. */
export function trackingIdProblem(value: string): string | null {
  if (value.length === 0) return 'must not be empty'
  if (loneSurrogate.test(value)) return 'must be well-formed Unicode (it contains a lone surrogate)'
  if (value.includes('\u0000')) return 'must not contain NUL (U+0000)'
  const length = countCodePoints(value)
  if (length > trackingIdMaxCodePoints)
    return `must be at most ${trackingIdMaxCodePoints} characters (Unicode code points); it has ${length}`
  if (value.trim() !== value) return 'must not start or end with whitespace'
  return null
}
