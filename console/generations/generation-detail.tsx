// One generation: its metadata (GET /api/v1/generation), its upstream attempts, and its stored input and
// output (GET /api/v1/generation/content) when IO logging kept them.
import type { ApiClient } from '../api/api-client.ts'
import type { Generation, GenerationContent } from '../api/types.ts'
import { DataTable } from '../components/data-table.tsx'
import { ErrorBox } from '../components/error-box.tsx'
import { formatCount, formatMs, formatTime, formatUsd } from '../format.ts'
import { href } from '../router.ts'
import { useApi } from '../use-api.ts'
import { OutcomeBadge } from './outcome-badge.tsx'

function metadataRows(generation: Generation): [string, string][] {
  return [
    ['Created (UTC)', formatTime(generation.created_at)],
    ['Model', generation.model],
    ['Provider', generation.provider_name ?? '—'],
    ['API', generation.api_type],
    ['Finish reason', generation.finish_reason ?? '—'],
    ['Streamed', generation.streamed ? 'yes' : 'no'],
    ['Cost', formatUsd(generation.total_cost)],
    [
      'Tokens in / out / reasoning / cached',
      [
        generation.tokens_prompt,
        generation.tokens_completion,
        generation.native_tokens_reasoning,
        generation.native_tokens_cached,
      ]
        .map(formatCount)
        .join(' / '),
    ],
    ['Latency / generation time', `${formatMs(generation.latency)} / ${formatMs(generation.generation_time)}`],
    ['Workspace', generation.workspace_id],
    ['Request id', generation.request_id ?? '—'],
    ['Session id', generation.session_id ?? '—'],
    [
      'Response cache',
      generation.response_cache_source_id === null ? 'not a hit' : `hit of ${generation.response_cache_source_id}`,
    ],
    ['User', generation.external_user ?? '—'],
    ['BYOK', generation.is_byok ? 'yes' : 'no'],
  ]
}

export function GenerationDetail({ client, id }: { client: ApiClient; id: string }) {
  const generation = useApi(
    async () => (await client.get<{ data: Generation }>('/api/v1/generation', { id })).data,
    [client, id],
  )
  const content = useApi(
    async () => (await client.get<{ data: GenerationContent }>('/api/v1/generation/content', { id })).data,
    [client, id],
  )
  const data = generation.data
  return (
    <section class="page">
      <p>
        <a href={href(['generations'])}>← All generations</a>
      </p>
      <h2 class="mono">{id}</h2>
      <ErrorBox message={generation.error} />
      {data !== undefined && (
        <>
          <p>
            <OutcomeBadge generation={data} />
          </p>
          <dl class="card meta">
            {metadataRows(data).map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <h3>Attempts</h3>
          <DataTable
            label="attempts"
            rows={data.provider_responses.map((attempt, index) => ({ ...attempt, index }))}
            rowKey={(attempt) => String(attempt.index)}
            empty="No upstream attempt was made."
            columns={[
              { title: '#', render: (attempt) => attempt.index + 1 },
              { title: 'Provider', render: (attempt) => attempt.provider_name },
              { title: 'Endpoint', render: (attempt) => attempt.endpoint_id ?? '—' },
              { title: 'Status', numeric: true, render: (attempt) => attempt.status ?? '—' },
              { title: 'Latency', numeric: true, render: (attempt) => formatMs(attempt.latency) },
            ]}
          />
        </>
      )}
      <h3>Stored content</h3>
      {content.error !== null ? <p class="muted">{content.error}</p> : <StoredContent content={content.data} />}
    </section>
  )
}

function StoredContent({ content }: { content: GenerationContent | undefined }) {
  if (content === undefined) return <p class="loading">Loading…</p>
  return (
    <div class="content">
      <h4>Input</h4>
      <pre>{JSON.stringify(content.input, null, 2)}</pre>
      <h4>Output</h4>
      <pre>
        {typeof content.output.completion === 'string'
          ? content.output.completion
          : JSON.stringify(content.output.completion, null, 2)}
      </pre>
      {content.output.reasoning !== null && content.output.reasoning !== undefined && (
        <>
          <h4>Reasoning</h4>
          <pre>{JSON.stringify(content.output.reasoning, null, 2)}</pre>
        </>
      )}
      {content.error !== null && (
        <>
          <h4>Error</h4>
          <pre>{JSON.stringify(content.error, null, 2)}</pre>
        </>
      )}
    </div>
  )
}
