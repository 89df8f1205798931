// Shared pagination schemas and helpers, one per style the public API uses.
import { Type, type TSchema } from 'typebox'

/** The largest offset a list route takes: past it, a store would overflow its integer (a 500), so it is a 400. */
const maxOffset = 2147483647

/** `offset` of every offset-style list route: 0 to 2^31-1, default 0. */
export const PageOffset = Type.Integer({
  minimum: 0,
  maximum: maxOffset,
  description: `Items to skip, 0 to ${maxOffset} (default 0)`,
})

/** `offset` (0..2^31-1, default 0) + `limit` (1..100, default 50) -> `{data, total_count}`. */
export const OffsetLimitQuery = Type.Object({
  offset: Type.Optional(PageOffset),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1 to 100 (default 50)' })),
})

export function offsetPage(
  query: { offset?: number | undefined; limit?: number | undefined },
  defaultLimit = 50,
): { offset: number; limit: number } {
  return { offset: query.offset ?? 0, limit: query.limit ?? defaultLimit }
}

export function TotalCountList<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), total_count: Type.Integer() })
}
