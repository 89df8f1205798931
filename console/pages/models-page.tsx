// Models and providers: the catalog with prices (searchable, 50 a page) and every endpoint's live health;
// #/models/<author>/<slug> shows one model's endpoints.
import { useState } from 'preact/hooks'
import type { Model } from '../api/types.ts'
import { DataTable } from '../components/data-table.tsx'
import { ErrorBox } from '../components/error-box.tsx'
import { TextField } from '../components/form-fields.tsx'
import { Pager } from '../components/pager.tsx'
import { formatCount } from '../format.ts'
import { EndpointHealthTable } from '../models/endpoint-health-table.tsx'
import { ModelEndpoints } from '../models/model-endpoints.tsx'
import { perMillion } from '../models/price.ts'
import { href, type Route } from '../router.ts'
import type { Session } from '../session.ts'
import { useApi } from '../use-api.ts'

const pageSize = 50

export function ModelsPage({ route, session }: { route: Route; session: Session }) {
  if (route.segments.length > 1)
    return (
      <ModelEndpoints
        client={session.client}
        slug={route.segments.slice(1).join('/')}
        showHealth={session.isManagement}
      />
    )
  return <Catalog session={session} />
}

function Catalog({ session }: { session: Session }) {
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(0)
  const models = useApi(async () => (await session.client.get<{ data: Model[] }>('/api/v1/models')).data, [session])
  const needle = search.trim().toLowerCase()
  const matching = (models.data ?? []).filter((model) => `${model.id} ${model.name}`.toLowerCase().includes(needle))
  const start = Math.min(page * pageSize, Math.max(0, matching.length - 1))
  return (
    <section class="page">
      <h2>Models and providers</h2>
      <div class="filters">
        <TextField
          label="Search models"
          type="search"
          value={search}
          onInput={(value) => {
            setSearch(value)
            setPage(0)
          }}
        />
      </div>
      <ErrorBox message={models.error} />
      <DataTable
        label="models"
        rows={matching.slice(start, start + pageSize)}
        rowKey={(model) => model.id}
        empty={models.loading ? 'Loading…' : 'No models match.'}
        columns={[
          { title: 'Model', render: (model) => <a href={href(['models', ...model.id.split('/')])}>{model.id}</a> },
          { title: 'Name', render: (model) => model.name },
          { title: 'Context', numeric: true, render: (model) => formatCount(model.context_length) },
          { title: 'Input / 1M', numeric: true, render: (model) => perMillion(model.pricing.prompt) },
          { title: 'Output / 1M', numeric: true, render: (model) => perMillion(model.pricing.completion) },
        ]}
      />
      <Pager
        label={`${matching.length === 0 ? 0 : start + 1}–${Math.min(start + pageSize, matching.length)} of ${matching.length}`}
        onPrevious={page > 0 ? () => setPage(page - 1) : undefined}
        onNext={start + pageSize < matching.length ? () => setPage(page + 1) : undefined}
      />
      {session.isManagement && <EndpointHealthTable client={session.client} />}
    </section>
  )
}
