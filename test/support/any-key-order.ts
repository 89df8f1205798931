// fast-check: an object arbitrary's values with their keys in the given order or in any other.
import fc from 'fast-check'

export function inAnyKeyOrder<T extends object>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return arbitrary.chain((value) => {
    const keys = Object.keys(value) as (keyof T)[]
    const reordered = fc.shuffledSubarray(keys, { minLength: keys.length }).map((order) => Object.fromEntries(order.map((key) => [key, value[key]])) as T)
    return fc.oneof(fc.constant(value), reordered)
  })
}
