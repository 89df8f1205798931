// Batches, newest first, with their progress (completed and failed requests of the total). The batch API
// answers inference keys (a batch belongs to the key that submitted it), so a management key sees the
// API's refusal here.
import { PagedList } from '../components/paged-list.tsx'
import type { Session } from '../session.ts'

interface Batch {
  readonly id: string
  readonly endpoint: string
  readonly model: string | null
  readonly status: string
  readonly created_at: number
  readonly request_counts: { readonly total: number; readonly completed: number; readonly failed: number }
}

function Progress({ counts }: { counts: Batch['request_counts'] }) {
  const done = counts.completed + counts.failed
  const share = counts.total === 0 ? 0 : done / counts.total
  const text = `${done} of ${counts.total} (${counts.failed} failed)`
  return (
    <span class="usage">
      <span
        class="bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={counts.total}
        aria-valuenow={done}
        aria-label={text}
      >
        <span class="fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </span>
      <span class="usage-text">{text}</span>
    </span>
  )
}

export function BatchesPage({ session }: { session: Session }) {
  return (
    <section class="page">
      <h2>Batches</h2>
      <PagedList<Batch>
        client={session.client}
        path="/api/v1/batches"
        label="batches"
        paging={{
          style: 'cursor',
          parameter: 'after',
          cursorOf: (page) => (page as { last_id?: string | null }).last_id ?? null,
        }}
        pageSize={20}
        rowKey={(row) => row.id}
        columns={[
          { title: 'Batch', render: (row) => <code>{row.id}</code> },
          { title: 'Endpoint', render: (row) => row.endpoint },
          { title: 'Model', render: (row) => row.model ?? '—' },
          { title: 'Status', render: (row) => row.status },
          { title: 'Progress', render: (row) => <Progress counts={row.request_counts} /> },
          {
            title: 'Created (UTC)',
            render: (row) => new Date(row.created_at * 1000).toISOString().slice(0, 19).replace('T', ' '),
          },
        ]}
      />
    </section>
  )
}
