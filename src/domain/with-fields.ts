/**
 * `{ ...base, ...fields }` for code that runs per request. On Node 20's V8, an object literal that
 * adds properties after a spread (`{ ...base, name: value }`, `{ ...a, ...b }`) gets a new hidden
 * class at every evaluation from about the tenth on: it is slow to build (~0.5-2 µs), every read of
 * it downstream is megamorphic, and the gateway's old generation filled with its garbage.
 * Object.assign onto a fresh literal keeps one hidden class.
 * Both arguments are the gateway's own objects (a `__proto__` key would set the prototype here).
 */
export function withFields<Base extends object, Fields extends object>(
  base: Base,
  fields: Fields,
): Omit<Base, keyof Fields> & Fields {
  return Object.assign({}, base, fields)
}
