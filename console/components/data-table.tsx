// A table that scrolls sideways on a narrow screen instead of squeezing its columns.
import type { ComponentChildren } from 'preact'

export interface Column<T> {
  readonly title: string
  readonly render: (row: T) => ComponentChildren
  /** Right-aligned (numbers). */
  readonly numeric?: boolean
}

interface DataTableProps<T> {
  readonly columns: readonly Column<T>[]
  readonly rows: readonly T[]
  readonly rowKey: (row: T) => string
  readonly empty: string
  readonly label: string
}

export function DataTable<T>({ columns, rows, rowKey, empty, label }: DataTableProps<T>) {
  if (rows.length === 0) return <p class="empty">{empty}</p>
  return (
    <div class="table-scroll">
      <table aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.title} class={column.numeric === true ? 'num' : undefined}>
                {column.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.title} class={column.numeric === true ? 'num' : undefined}>
                  {column.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
