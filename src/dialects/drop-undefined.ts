/** The object without its undefined-valued fields, so encoded bodies and decoded options stay minimal. */
export function dropUndefined<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>
}
