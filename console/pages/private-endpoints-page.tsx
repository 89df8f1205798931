// Private endpoints (drafts included); run an endpoint's validation checks and see each check's result;
// activate a validated draft, disable or enable an active one.
import { useState } from 'preact/hooks'
import { ActionButton } from '../components/action-button.tsx'
import { DataTable } from '../components/data-table.tsx'
import { PagedList } from '../components/paged-list.tsx'
import { formatTime } from '../format.ts'
import type { Session } from '../session.ts'

interface PrivateEndpoint {
  readonly id: string
  readonly status: 'draft' | 'active' | 'disabled'
  readonly model_slug: string
  readonly provider_name: string
  readonly created_at: string
}

interface Check {
  readonly name: string
  readonly passed: boolean
  readonly reason?: string
  readonly upstream_status?: number
}

interface Validation {
  readonly id: string
  readonly passed: boolean
  readonly checks: readonly Check[]
}

const nextStep: Record<PrivateEndpoint['status'], 'activate' | 'disable' | 'enable'> = {
  draft: 'activate',
  active: 'disable',
  disabled: 'enable',
}

function ValidationResult({ validation }: { validation: Validation }) {
  return (
    <section class="card" aria-label="validation">
      <h3>
        Checks of {validation.id}: {validation.passed ? 'passed' : 'failed'}
      </h3>
      <DataTable
        label="checks"
        rows={validation.checks}
        rowKey={(check) => check.name}
        empty="No checks."
        columns={[
          { title: 'Check', render: (check) => check.name },
          {
            title: 'Result',
            render: (check) => (
              <span class={`badge ${check.passed ? 'on' : 'off'}`}>{check.passed ? 'passed' : 'failed'}</span>
            ),
          },
          { title: 'Reason', render: (check) => check.reason ?? '—' },
          { title: 'Upstream status', render: (check) => check.upstream_status ?? '—' },
        ]}
      />
    </section>
  )
}

export function PrivateEndpointsPage({ session }: { session: Session }) {
  const { client } = session
  const [version, setVersion] = useState(0)
  const [validation, setValidation] = useState<Validation | null>(null)
  const changed = () => setVersion((value) => value + 1)
  const path = (row: PrivateEndpoint, action: string) =>
    `/api/v1/private-endpoints/${encodeURIComponent(row.id)}/${action}`
  return (
    <section class="page">
      <h2>Private endpoints</h2>
      <PagedList<PrivateEndpoint>
        client={client}
        path="/api/v1/private-endpoints"
        label="private endpoints"
        paging={{ style: 'offset' }}
        version={version}
        rowKey={(row) => row.id}
        columns={[
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
                  onDone={(answer) =>
                    setValidation({ id: row.id, ...(answer as { data: Omit<Validation, 'id'> }).data })
                  }
                >
                  Validate
                </ActionButton>
                <ActionButton client={client} method="POST" path={path(row, nextStep[row.status])} onDone={changed}>
                  {nextStep[row.status]}
                </ActionButton>
              </span>
            ),
          },
        ]}
      />
      {validation !== null && <ValidationResult validation={validation} />}
    </section>
  )
}
