// Presets, most recently updated first, and a preset's versions (the designated one marked).
import { useState } from 'preact/hooks'
import { PagedList } from '../components/paged-list.tsx'
import { formatTime } from '../format.ts'
import type { Session } from '../session.ts'

interface Preset {
  readonly id: string
  readonly slug: string
  readonly name: string
  readonly status: string
  readonly designated_version_id: string | null
  readonly updated_at: string
}

interface PresetVersion {
  readonly id: string
  readonly version: number
  readonly config: unknown
  readonly system_prompt: string | null
  readonly created_at: string
}

export function PresetsPage({ session }: { session: Session }) {
  const [selected, setSelected] = useState<Preset | null>(null)
  return (
    <section class="page">
      <h2>Presets</h2>
      <PagedList<Preset>
        client={session.client}
        path="/api/v1/presets"
        label="presets"
        paging={{ style: 'offset' }}
        rowKey={(row) => row.id}
        columns={[
          { title: 'Slug', render: (row) => <code>@preset/{row.slug}</code> },
          { title: 'Name', render: (row) => row.name },
          {
            title: 'Status',
            render: (row) => <span class={`badge ${row.status === 'active' ? 'on' : 'off'}`}>{row.status}</span>,
          },
          { title: 'Updated', render: (row) => formatTime(row.updated_at) },
          {
            title: 'Versions',
            render: (row) => (
              <button type="button" class="small" onClick={() => setSelected(row)}>
                Versions
              </button>
            ),
          },
        ]}
      />
      {selected !== null && (
        <section class="card" aria-label="versions" key={selected.id}>
          <h3>Versions of {selected.slug}</h3>
          <PagedList<PresetVersion>
            client={session.client}
            path={`/api/v1/presets/${encodeURIComponent(selected.slug)}/versions`}
            label="preset versions"
            paging={{ style: 'offset' }}
            rowKey={(row) => row.id}
            columns={[
              {
                title: 'Version',
                render: (row) => `${row.version}${row.id === selected.designated_version_id ? ' (designated)' : ''}`,
              },
              { title: 'Created', render: (row) => formatTime(row.created_at) },
              { title: 'System prompt', render: (row) => row.system_prompt ?? '—' },
              { title: 'Config', render: (row) => <pre>{JSON.stringify(row.config, null, 2)}</pre> },
            ]}
          />
        </section>
      )}
    </section>
  )
}
