// A preset's versions, oldest first, with the designated one marked, its system prompt and settings.
import type { ApiClient } from '../api/api-client.ts'
import { PagedList } from '../components/paged-list.tsx'
import { formatTime } from '../format.ts'
import type { Preset, PresetVersion } from './preset.ts'

export function PresetVersions({ client, preset }: { client: ApiClient; preset: Preset }) {
  return (
    <section class="card" aria-label="versions">
      <h3>Versions of {preset.slug}</h3>
      <PagedList<PresetVersion>
        client={client}
        path={`/api/v1/presets/${encodeURIComponent(preset.slug)}/versions`}
        label="preset versions"
        paging={{ style: 'offset' }}
        rowKey={(row) => row.id}
        columns={[
          {
            title: 'Version',
            render: (row) => `${row.version}${row.id === preset.designated_version_id ? ' (designated)' : ''}`,
          },
          { title: 'Created', render: (row) => formatTime(row.created_at) },
          { title: 'System prompt', render: (row) => row.system_prompt ?? '—' },
          { title: 'Config', render: (row) => <pre>{JSON.stringify(row.config, null, 2)}</pre> },
        ]}
      />
    </section>
  )
}
