// Each provider endpoint's live health on this gateway instance (GET /api/v1/endpoints/health).
import type { ApiClient } from '../api/api-client.ts'
import type { EndpointHealth } from '../api/types.ts'
import { DataTable } from '../components/data-table.tsx'
import { ErrorBox } from '../components/error-box.tsx'
import { formatCount, formatMs, formatPercent } from '../format.ts'
import { useApi } from '../use-api.ts'

export function EndpointHealthTable({ client, model }: { client: ApiClient; model?: string }) {
  const health = useApi(
    async () => (await client.get<{ data: EndpointHealth[] }>('/api/v1/endpoints/health')).data,
    [client],
  )
  const rows = (health.data ?? []).filter((row) => model === undefined || row.model === model)
  return (
    <section aria-label="endpoint health">
      <h3>Endpoint health (this instance, last 5 minutes)</h3>
      <ErrorBox message={health.error === null ? null : `GET /api/v1/endpoints/health: ${health.error}`} />
      {health.error === null && (
        <DataTable
          label="endpoint health"
          rows={rows}
          rowKey={(row) => `${row.model}|${row.endpoint_id}`}
          empty={health.loading ? 'Loading…' : 'No endpoint has served a request yet.'}
          columns={[
            { title: 'Model', render: (row) => row.model },
            { title: 'Provider', render: (row) => row.provider },
            {
              title: 'Circuit',
              render: (row) => (
                <span class={`badge ${row.circuit_state === 'closed' ? 'on' : 'off'}`}>{row.circuit_state}</span>
              ),
            },
            { title: 'Requests', numeric: true, render: (row) => formatCount(row.requests_5m) },
            { title: 'Error rate', numeric: true, render: (row) => formatPercent(row.error_rate_5m) },
            { title: 'p50', numeric: true, render: (row) => formatMs(row.latency_p50_ms) },
            { title: 'p99', numeric: true, render: (row) => formatMs(row.latency_p99_ms) },
          ]}
        />
      )}
    </section>
  )
}
