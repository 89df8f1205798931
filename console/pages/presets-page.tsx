// Presets, most recently updated first, and a preset's versions (the designated one marked). A
// management key creates presets and new versions here; the self-service view only reads them.
import { useState } from 'preact/hooks'
import { PagedList } from '../components/paged-list.tsx'
import { formatTime } from '../format.ts'
import { CreatePresetForm } from '../presets/create-preset-form.tsx'
import type { Preset } from '../presets/preset.ts'
import { PresetVersions } from '../presets/preset-versions.tsx'
import type { Session } from '../session.ts'

export function PresetsPage({ session }: { session: Session }) {
  const [selected, setSelected] = useState<Preset | null>(null)
  const [versionOf, setVersionOf] = useState('')
  const [version, setVersion] = useState(0)
  const created = (preset: Preset) => {
    setSelected(preset)
    setVersionOf('')
    setVersion((value) => value + 1)
  }
  return (
    <section class="page">
      <h2>Presets</h2>
      {session.isManagement && (
        <CreatePresetForm
          key={`${versionOf}:${version}`}
          client={session.client}
          slug={versionOf}
          onCreated={created}
        />
      )}
      <PagedList<Preset>
        client={session.client}
        path="/api/v1/presets"
        label="presets"
        paging={{ style: 'offset' }}
        version={version}
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
              <span class="row-actions">
                <button type="button" class="small" onClick={() => setSelected(row)}>
                  Versions
                </button>
                {session.isManagement && (
                  <button type="button" class="small" onClick={() => setVersionOf(row.slug)}>
                    New version
                  </button>
                )}
              </span>
            ),
          },
        ]}
      />
      {selected !== null && (
        <PresetVersions key={`${selected.id}:${version}`} client={session.client} preset={selected} />
      )}
    </section>
  )
}
