// Ranks entries by how many of the query's words their text contains (case-insensitive); entries that
// match no word are left out. Ties keep the input order.
export function searchByWords<T>(
  entries: readonly T[],
  query: string,
  textOf: (entry: T) => string,
  limit: number,
): T[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1)
  if (words.length === 0) return []
  return entries
    .map((entry, index) => {
      const text = textOf(entry).toLowerCase()
      return { entry, index, score: words.filter((word) => text.includes(word)).length }
    })
    .filter((scored) => scored.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map((scored) => scored.entry)
}
