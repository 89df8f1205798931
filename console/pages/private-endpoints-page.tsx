// Private endpoints (drafts included): create a draft; run an endpoint's validation checks in a
// workspace and see each check's result; activate a validated draft, disable or enable an active one.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import { ActionButton } from '../components/action-button.tsx'
import type { Column } from '../components/data-table.tsx'
import { TextField } from '../components/form-fields.tsx'
import { PagedList } from '../components/paged-list.tsx'
import { formatTime } from '../format.ts'
import { CreateEndpointForm } from '../private-endpoints/create-endpoint-form.tsx'
import { ValidationResult, type Validation } from '../private-endpoints/validation-result.tsx'
import type { Session } from '../session.ts'

interface PrivateEndpoint {
  readonly id: string
  readonly status: 'draft' | 'active' | 'disabled'
  readonly model_slug: string
  readonly provider_name: string
  readonly created_at: string
}

const nextStep: Record<PrivateEndpoint['status'], 'activate' | 'disable' | 'enable'> = {
  draft: 'activate',
  active: 'disable',
  disabled: 'enable',
}

const path = (row: PrivateEndpoint, action: string) =>
  `/api/v1/private-endpoints/${encodeURIComponent(row.id)}/${action}`

function endpointColumns(
  client: ApiClient,
  workspace: string,
  changed: () => void,
  setValidation: (validation: Validation) => void,
): Column<PrivateEndpoint>[] {
  return [
    { title: 'Model', render: (row) => <code>{row.model_slug}</code> },
    { title: 'Provider', render: (row) => row.provider_name },
    {
      title: 'Status',
      render: (row) => <span class={`badge ${row.status === 'active' ? 'on' : 'off'}`}>{row.status}</span>,
    },
    { title: 'Created', render: (row) => formatTime(row.created_at) },
    {
      title: 'Actions',
      render: (row) => (
        <span class="row-actions">
          <ActionButton
            client={client}
            method="POST"
            path={path(row, 'validate')}
            body={{ workspace_id: workspace.trim() }}
            onDone={(answer) => setValidation({ id: row.id, ...(answer as { data: Omit<Validation, 'id'> }).data })}
          >
            Validate
          </ActionButton>
          <ActionButton client={client} method="POST" path={path(row, nextStep[row.status])} onDone={changed}>
            {nextStep[row.status]}
          </ActionButton>
        </span>
      ),
    },
  ]
}

export function PrivateEndpointsPage({ session }: { session: Session }) {
  const { client } = session
  const [version, setVersion] = useState(0)
  const [workspace, setWorkspace] = useState('')
  const [validation, setValidation] = useState<Validation | null>(null)
  const changed = () => setVersion((value) => value + 1)
  return (
    <section class="page">
      <h2>Private endpoints</h2>
      <CreateEndpointForm client={client} onCreated={changed} />
      <div class="filters">
        <TextField
          label="Validate in workspace (id or slug; its keys will call the endpoint)"
          value={workspace}
          onInput={setWorkspace}
        />
      </div>
      <PagedList<PrivateEndpoint>
        client={client}
        path="/api/v1/private-endpoints"
        label="private endpoints"
        paging={{ style: 'offset' }}
        version={version}
        rowKey={(row) => row.id}
        columns={endpointColumns(client, workspace, changed, setValidation)}
      />
      {validation !== null && <ValidationResult key={JSON.stringify(validation)} validation={validation} />}
    </section>
  )
}
