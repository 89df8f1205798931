// Guardrails: list, create, delete; a guardrail's key and member assignments.
import { useState } from 'preact/hooks'
import { ActionButton } from '../components/action-button.tsx'
import { PagedList } from '../components/paged-list.tsx'
import { formatUsd } from '../format.ts'
import { CreateGuardrailForm } from '../guardrails/create-guardrail-form.tsx'
import { GuardrailAssignments } from '../guardrails/guardrail-assignments.tsx'
import type { Session } from '../session.ts'

interface Guardrail {
  readonly id: string
  readonly name: string
  readonly workspace_id: string | null
  readonly limit_usd: number | null
  readonly reset_interval: string | null
  readonly allowed_models: readonly string[] | null
  readonly allowed_providers: readonly string[] | null
  readonly content_filters: readonly unknown[] | null
  readonly content_filter_builtins: readonly unknown[] | null
}

const listed = (values: readonly unknown[] | null) => (values === null ? 'any' : values.join(', '))

export function GuardrailsPage({ session }: { session: Session }) {
  const { client } = session
  const [version, setVersion] = useState(0)
  const [selected, setSelected] = useState<string | null>(null)
  const changed = () => setVersion((value) => value + 1)
  return (
    <section class="page">
      <h2>Guardrails</h2>
      <CreateGuardrailForm client={client} onCreated={changed} />
      <PagedList<Guardrail>
        client={client}
        path="/api/v1/guardrails"
        label="guardrails"
        paging={{ style: 'offset' }}
        version={version}
        rowKey={(row) => row.id}
        columns={[
          { title: 'Name', render: (row) => <strong>{row.name}</strong> },
          { title: 'Workspace', render: (row) => <code>{row.workspace_id ?? '—'}</code> },
          {
            title: 'Limit',
            render: (row) =>
              row.limit_usd === null ? 'none' : `${formatUsd(row.limit_usd)} ${row.reset_interval ?? 'total'}`,
          },
          { title: 'Models', render: (row) => listed(row.allowed_models) },
          { title: 'Providers', render: (row) => listed(row.allowed_providers) },
          {
            title: 'Filters',
            numeric: true,
            render: (row) => (row.content_filters?.length ?? 0) + (row.content_filter_builtins?.length ?? 0),
          },
          {
            title: 'Actions',
            render: (row) => (
              <span class="row-actions">
                <button type="button" class="small" onClick={() => setSelected(row.id)}>
                  Assignments
                </button>
                <ActionButton
                  client={client}
                  method="DELETE"
                  path={`/api/v1/guardrails/${encodeURIComponent(row.id)}`}
                  confirmText={`Delete the guardrail “${row.name}”?`}
                  danger
                  onDone={changed}
                >
                  Delete
                </ActionButton>
              </span>
            ),
          },
        ]}
      />
      {selected !== null && <GuardrailAssignments key={selected} client={client} guardrailId={selected} />}
    </section>
  )
}
