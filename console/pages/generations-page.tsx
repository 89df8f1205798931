// Generations: the log explorer over GET /api/v1/generations (newest first, cursor pages), and a
// generation's detail at #/generations/<id>.
import { useState } from 'preact/hooks'
import type { Generation } from '../api/types.ts'
import { DataTable, type Column } from '../components/data-table.tsx'
import { ErrorBox } from '../components/error-box.tsx'
import { Pager } from '../components/pager.tsx'
import { formatCount, formatMs, formatTime, formatUsd } from '../format.ts'
import { OutcomeBadge } from '../generations/outcome-badge.tsx'
import { GenerationDetail } from '../generations/generation-detail.tsx'
import { GenerationFilters, filterQuery, readFilters } from '../generations/generation-filters.tsx'
import { href, type Route } from '../router.ts'
import type { Session } from '../session.ts'
import { useApi } from '../use-api.ts'
import { ownScope } from './overview-page.tsx'

interface GenerationPage {
  readonly data: readonly Generation[]
  readonly next_cursor: string | null
}

const columns: Column<Generation>[] = [
  { title: 'Time (UTC)', render: (row) => <a href={href(['generations', row.id])}>{formatTime(row.created_at)}</a> },
  { title: 'Model', render: (row) => row.model },
  { title: 'Provider', render: (row) => row.provider_name ?? '—' },
  { title: 'API', render: (row) => row.api_type },
  { title: 'Outcome', render: (row) => <OutcomeBadge generation={row} /> },
  {
    title: 'Tokens in/out',
    numeric: true,
    render: (row) => `${formatCount(row.tokens_prompt)} / ${formatCount(row.tokens_completion)}`,
  },
  { title: 'Cost', numeric: true, render: (row) => formatUsd(row.total_cost) },
  { title: 'Latency', numeric: true, render: (row) => formatMs(row.latency) },
]

export function GenerationsPage({ route, session }: { route: Route; session: Session }) {
  const id = route.segments[1]
  if (id !== undefined) return <GenerationDetail client={session.client} id={id} />
  return <GenerationList route={route} session={session} />
}

function GenerationList({ route, session }: { route: Route; session: Session }) {
  const filters = readFilters(route.params)
  const query = { ...filterQuery(filters), ...ownScope(session) }
  const queryKey = JSON.stringify(query)
  // The cursors of the pages before the current one, to step back.
  const [cursors, setCursors] = useState<{ key: string; stack: (string | null)[] }>({ key: queryKey, stack: [null] })
  const stack = cursors.key === queryKey ? cursors.stack : [null]
  const cursor = stack[stack.length - 1] ?? null
  const page = useApi(
    () => session.client.get<GenerationPage>('/api/v1/generations', { ...query, limit: 50, cursor }),
    [session, queryKey, cursor],
  )
  const next = page.data?.next_cursor ?? null
  return (
    <section class="page">
      <h2>Generations</h2>
      <GenerationFilters key={queryKey} filters={filters} showScope={session.isManagement} />
      <ErrorBox message={page.error === null ? null : `GET /api/v1/generations: ${page.error}`} />
      <DataTable
        label="generations"
        columns={columns}
        rows={page.data?.data ?? []}
        rowKey={(row) => row.id}
        empty={page.loading ? 'Loading…' : 'No generations match.'}
      />
      <Pager
        label={`page ${stack.length}`}
        onPrevious={stack.length > 1 ? () => setCursors({ key: queryKey, stack: stack.slice(0, -1) }) : undefined}
        onNext={next !== null ? () => setCursors({ key: queryKey, stack: [...stack, next] }) : undefined}
      />
    </section>
  )
}
