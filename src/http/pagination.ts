// Shared pagination schemas and helpers, one per style the public API uses.
import { Type, type TSchema } from 'typebox'

/** `offset` (>= 0, default 0) + `limit` (1..100, default 50) -> `{data, total_count}`. */
export const OffsetLimitQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, description: 'Items to skip (default 0)' })),
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
