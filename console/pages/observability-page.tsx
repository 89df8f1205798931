// Observability destinations with their delivery counts; create, send a test event, enable, disable,
// delete. The create form is built from the API's list of destination types.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import type { Column } from '../components/data-table.tsx'
import { ActionButton } from '../components/action-button.tsx'
import { PagedList } from '../components/paged-list.tsx'
import { formatTime } from '../format.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { CreateDestinationForm } from '../observability/create-destination-form.tsx'
import type { DestinationType } from '../observability/destination-type.ts'
import { TestEventButton } from '../observability/test-event-button.tsx'
import type { Session } from '../session.ts'
import { useApi } from '../use-api.ts'

interface Destination {
  readonly id: string
  readonly workspace_id: string
  readonly name: string | null
  readonly type: string
  readonly enabled: boolean
  readonly sampling_rate: number
  readonly updated_at: string
  readonly delivery: {
    readonly pending: number
    readonly failed: number
    readonly delivered: number
    readonly dead_lettered: number
    readonly last_error: string | null
  }
}

const destinationPath = (row: Destination) => `/api/v1/observability/destinations/${encodeURIComponent(row.id)}`

function destinationColumns(client: ApiClient, changed: () => void): Column<Destination>[] {
  const path = destinationPath
  return [
    { title: 'Name', render: (row) => row.name ?? row.id },
    { title: 'Type', render: (row) => row.type },
    { title: 'Workspace', render: (row) => <code>{row.workspace_id}</code> },
    {
      title: 'State',
      render: (row) => (
        <span class={`badge ${row.enabled ? 'on' : 'off'}`}>{row.enabled ? 'enabled' : 'disabled'}</span>
      ),
    },
    {
      title: 'Delivered / pending / failed / dead',
      render: (row) =>
        `${row.delivery.delivered} / ${row.delivery.pending} / ${row.delivery.failed} / ${row.delivery.dead_lettered}`,
    },
    { title: 'Last error', render: (row) => row.delivery.last_error ?? '—' },
    { title: 'Updated', render: (row) => formatTime(row.updated_at) },
    {
      title: 'Actions',
      render: (row) => (
        <span class="row-actions">
          <TestEventButton client={client} path={`${path(row)}/test`} />
          <ActionButton
            client={client}
            method="PATCH"
            path={path(row)}
            body={{ enabled: !row.enabled }}
            onDone={changed}
          >
            {row.enabled ? 'Disable' : 'Enable'}
          </ActionButton>
          <ActionButton
            client={client}
            method="DELETE"
            path={path(row)}
            confirmText="Delete this destination?"
            danger
            onDone={changed}
          >
            Delete
          </ActionButton>
        </span>
      ),
    },
  ]
}

export function ObservabilityPage({ session }: { session: Session }) {
  const { client } = session
  const [version, setVersion] = useState(0)
  const changed = () => setVersion((value) => value + 1)
  const types = useApi(
    () => client.get<{ data: readonly DestinationType[] }>('/api/v1/observability/destination-types'),
    [client],
  )
  const deliverable = types.data?.data.filter((entry) => entry.deliverable)
  return (
    <section class="page">
      <h2>Observability destinations</h2>
      <ErrorBox message={types.error === null ? null : `GET /api/v1/observability/destination-types: ${types.error}`} />
      {deliverable !== undefined && <CreateDestinationForm client={client} types={deliverable} onCreated={changed} />}
      <PagedList<Destination>
        client={client}
        path="/api/v1/observability/destinations"
        label="destinations"
        paging={{ style: 'offset' }}
        version={version}
        rowKey={(row) => row.id}
        columns={destinationColumns(client, changed)}
      />
    </section>
  )
}
