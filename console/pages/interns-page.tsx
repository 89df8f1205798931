// Interns of the key's workspace with their state and provisioning progress, and the workspace's vault
// secrets as metadata (name, allowed hosts, fingerprint): the API never returns a secret's value. These
// routes answer workspace (inference) keys; a management key sees the API's refusal.
import { PagedList } from '../components/paged-list.tsx'
import { formatTime } from '../format.ts'
import type { Session } from '../session.ts'

interface Intern {
  readonly id: string
  readonly name: string
  readonly model: string | null
  readonly status: string
  readonly progress: { readonly step_label: string; readonly step_number: number; readonly total_steps: number } | null
  readonly last_failure_message: string | null
  readonly created_at: string
}

interface Secret {
  readonly name: string
  readonly hosts: readonly string[] | null
  readonly fingerprint: string | null
  readonly created_at: string
}

export function InternsPage({ session }: { session: Session }) {
  return (
    <section class="page">
      <h2>Interns and vault</h2>
      <h3>Interns</h3>
      <PagedList<Intern>
        client={session.client}
        path="/api/v1/interns"
        label="interns"
        paging={{ style: 'cursor', parameter: 'starting_after', cursorOf: (page) => page.next_cursor ?? null }}
        rowKey={(row) => row.id}
        columns={[
          { title: 'Name', render: (row) => <strong>{row.name}</strong> },
          { title: 'Model', render: (row) => row.model ?? '—' },
          { title: 'Status', render: (row) => row.status },
          {
            title: 'Progress',
            render: (row) =>
              row.progress === null
                ? '—'
                : `${row.progress.step_number}/${row.progress.total_steps} ${row.progress.step_label}`,
          },
          { title: 'Last failure', render: (row) => row.last_failure_message ?? '—' },
          { title: 'Created', render: (row) => formatTime(row.created_at) },
        ]}
      />
      <h3>Vault secrets (metadata only)</h3>
      <PagedList<Secret>
        client={session.client}
        path="/api/v1/vault/secrets"
        label="vault secrets"
        paging={{ style: 'offset' }}
        rowKey={(row) => row.name}
        columns={[
          { title: 'Name', render: (row) => <code>{row.name}</code> },
          { title: 'Hosts', render: (row) => row.hosts?.join(', ') ?? 'any' },
          { title: 'Fingerprint', render: (row) => <code>{row.fingerprint ?? '—'}</code> },
          { title: 'Created', render: (row) => formatTime(row.created_at) },
        ]}
      />
    </section>
  )
}
