// One model's provider endpoints with their prices (GET /api/v1/models/{author}/{slug}/endpoints) and health.
import type { ApiClient } from '../api/api-client.ts'
import type { ModelEndpoint } from '../api/types.ts'
import { DataTable } from '../components/data-table.tsx'
import { ErrorBox } from '../components/error-box.tsx'
import { formatCount } from '../format.ts'
import { href } from '../router.ts'
import { useApi } from '../use-api.ts'
import { EndpointHealthTable } from './endpoint-health-table.tsx'
import { perMillion } from './price.ts'

export function ModelEndpoints({ client, slug, showHealth }: { client: ApiClient; slug: string; showHealth: boolean }) {
  const endpoints = useApi(
    async () =>
      (
        await client.get<{ data: { endpoints: ModelEndpoint[] } }>(
          `/api/v1/models/${slug.split('/').map(encodeURIComponent).join('/')}/endpoints`,
        )
      ).data.endpoints,
    [client, slug],
  )
  return (
    <section class="page">
      <p>
        <a href={href(['models'])}>← All models</a>
      </p>
      <h2 class="mono">{slug}</h2>
      <ErrorBox message={endpoints.error} />
      <DataTable
        label="endpoints"
        rows={endpoints.data ?? []}
        rowKey={(row) => row.name}
        empty={endpoints.loading ? 'Loading…' : 'No endpoints.'}
        columns={[
          { title: 'Provider', render: (row) => row.provider_name },
          { title: 'Context', numeric: true, render: (row) => formatCount(row.context_length) },
          { title: 'Input / 1M', numeric: true, render: (row) => perMillion(row.pricing.prompt) },
          { title: 'Output / 1M', numeric: true, render: (row) => perMillion(row.pricing.completion) },
        ]}
      />
      {showHealth && <EndpointHealthTable client={client} model={slug} />}
    </section>
  )
}
