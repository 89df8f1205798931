// The top entries of a breakdown (models, keys, workspaces by spend), each with a bar against the first.
import { formatUsd } from '../format.ts'

export interface Ranked {
  readonly name: string
  readonly value: number
}

export function Ranking({ title, entries, empty }: { title: string; entries: readonly Ranked[]; empty: string }) {
  const top = entries[0]?.value ?? 0
  return (
    <section class="card ranking" aria-label={title}>
      <h3>{title}</h3>
      {entries.length === 0 ? (
        <p class="empty">{empty}</p>
      ) : (
        <ol>
          {entries.map((entry) => (
            <li key={entry.name}>
              <span class="name" title={entry.name}>
                {entry.name}
              </span>
              <span class="value">{formatUsd(entry.value)}</span>
              <span class="bar">
                <span class="fill" style={{ width: `${top === 0 ? 0 : (entry.value / top) * 100}%` }} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** Sums values by name and keeps the `count` largest. */
export function rank<T>(rows: readonly T[], name: (row: T) => string, value: (row: T) => number, count = 5): Ranked[] {
  const totals = new Map<string, number>()
  for (const row of rows) totals.set(name(row), (totals.get(name(row)) ?? 0) + value(row))
  return [...totals]
    .map(([entryName, total]) => ({ name: entryName, value: total }))
    .sort((a, b) => b.value - a.value)
    .slice(0, count)
}
