// The result of an endpoint's validation (POST /api/v1/private-endpoints/{id}/validate): each check,
// passed or failed, with the API's reason and what the upstream answered.
import { DataTable } from '../components/data-table.tsx'

interface Check {
  readonly name: string
  readonly passed: boolean
  readonly reason?: string
  readonly upstream_status?: number
  readonly upstream_message?: string | null
  readonly actual_model?: string | null
}

export interface Validation {
  readonly id: string
  readonly passed: boolean
  readonly checks: readonly Check[]
}

export function ValidationResult({ validation }: { validation: Validation }) {
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
          { title: 'Upstream said', render: (check) => check.upstream_message ?? '—' },
          { title: 'Model served', render: (check) => check.actual_model ?? '—' },
        ]}
      />
    </section>
  )
}
