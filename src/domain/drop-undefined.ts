/** The object without its undefined-valued fields, so encoded bodies and decoded options stay minimal. */
export function dropUndefined<T extends Record<string, unknown>>(fields: T): Partial<T> {
  // A for-in copy: no entries arrays or filter closure per call (this runs several times per request).
  const kept: Record<string, unknown> = {}
  for (const name in fields) {
    const value = fields[name]
    if (value !== undefined) kept[name] = value
  }
  return kept as Partial<T>
}
