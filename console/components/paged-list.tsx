// A list route of the API shown as a table with pages: offset pages (`offset`/`limit`, `total_count`)
// or cursor pages (`has_more` and a cursor taken from the last row or `next_cursor`).
import { useState } from 'preact/hooks'
import type { ApiClient, Query } from '../api/api-client.ts'
import { useApi } from '../use-api.ts'
import { DataTable, type Column } from './data-table.tsx'
import { ErrorBox } from './error-box.tsx'
import { Pager } from './pager.tsx'

interface Page<T> {
  readonly data: readonly T[]
  readonly total_count?: number
  readonly has_more?: boolean
  readonly next_cursor?: string | null
}

export type Paging =
  | { readonly style: 'offset' }
  /** `parameter` is sent with the cursor; `cursorOf` reads it from a page (its last row, or next_cursor). */
  | { readonly style: 'cursor'; readonly parameter: string; readonly cursorOf: (page: Page<unknown>) => string | null }

interface PagedListProps<T> {
  readonly client: ApiClient
  readonly path: string
  readonly label: string
  readonly columns: readonly Column<T>[]
  readonly rowKey: (row: T) => string
  readonly paging: Paging
  readonly query?: Query
  readonly pageSize?: number
  /** Changes when something was created or changed: the page loads again. */
  readonly version?: number
}

export function PagedList<T>({
  client,
  path,
  label,
  columns,
  rowKey,
  paging,
  query = {},
  pageSize = 50,
  version = 0,
}: PagedListProps<T>) {
  const [stack, setStack] = useState<(string | number)[]>([paging.style === 'offset' ? 0 : ''])
  const position = stack[stack.length - 1]!
  const queryKey = JSON.stringify(query)
  const pageQuery: Query =
    paging.style === 'offset'
      ? { ...query, offset: position, limit: pageSize }
      : { ...query, limit: pageSize, [paging.parameter]: position === '' ? undefined : String(position) }
  const page = useApi(() => client.get<Page<T>>(path, pageQuery), [client, path, queryKey, position, version])
  const rows = page.data?.data ?? []
  const next = nextPosition(paging, page.data, Number(position), pageSize)
  return (
    <>
      <ErrorBox message={page.error === null ? null : `GET ${path}: ${page.error}`} />
      <DataTable
        label={label}
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        empty={page.loading ? 'Loading…' : 'None.'}
      />
      <Pager
        label={
          page.data?.total_count === undefined
            ? `page ${stack.length}`
            : `${page.data.total_count} in all, page ${stack.length}`
        }
        onPrevious={stack.length > 1 ? () => setStack(stack.slice(0, -1)) : undefined}
        onNext={next === null ? undefined : () => setStack([...stack, next])}
      />
    </>
  )
}

function nextPosition(
  paging: Paging,
  page: Page<unknown> | undefined,
  offset: number,
  pageSize: number,
): string | number | null {
  if (page === undefined) return null
  if (paging.style === 'cursor') return page.has_more === false ? null : paging.cursorOf(page)
  const total = page.total_count
  const more =
    page.has_more ?? (total === undefined ? page.data.length === pageSize : offset + page.data.length < total)
  return more ? offset + pageSize : null
}
