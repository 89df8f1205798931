// The explorer's filters, the query parameters of GET /api/v1/generations; applied through the route
// (#/generations?model=...) so a filtered view survives a reload.
import { useState } from 'preact/hooks'
import { SelectField, TextField } from '../components/form-fields.tsx'
import { navigate } from '../router.ts'

export const filterNames = [
  'model',
  'provider',
  'status',
  'api_type',
  'from',
  'to',
  'user',
  'session_id',
  'api_key_hash',
  'workspace_id',
] as const
export type FilterName = (typeof filterNames)[number]
export type Filters = Readonly<Record<FilterName, string>>

export function readFilters(params: URLSearchParams): Filters {
  return Object.fromEntries(filterNames.map((name) => [name, params.get(name) ?? ''])) as Record<FilterName, string>
}

const statusOptions = [
  ['', 'any'],
  ['success', 'success'],
  ['error', 'error'],
  ['cancelled', 'cancelled'],
] as const
const apiTypeOptions = [
  ['', 'any'],
  ...['completions', 'chat', 'responses', 'messages', 'embeddings', 'decisions'].map((type) => [type, type] as const),
] as const

const textFilters: readonly (readonly [FilterName, string])[] = [
  ['model', 'Model'],
  ['provider', 'Provider'],
  ['user', 'User'],
  ['session_id', 'Session id'],
  ['api_key_hash', 'Key hash'],
  ['workspace_id', 'Workspace id'],
]

export function GenerationFilters({ filters, showScope }: { filters: Filters; showScope: boolean }) {
  const [draft, setDraft] = useState<Record<FilterName, string>>({ ...filters })
  const set = (name: FilterName) => (value: string) => setDraft({ ...draft, [name]: value })
  const apply = (event: Event) => {
    event.preventDefault()
    navigate(['generations'], draft)
  }
  const shown = textFilters.filter(([name]) => showScope || (name !== 'api_key_hash' && name !== 'workspace_id'))
  return (
    <form class="filters card" onSubmit={apply} aria-label="filters">
      {shown.map(([name, label]) => (
        <TextField key={name} label={label} value={draft[name]} onInput={set(name)} maxLength={200} />
      ))}
      <SelectField label="Status" value={draft.status} onChange={set('status')} options={statusOptions} />
      <SelectField label="API" value={draft.api_type} onChange={set('api_type')} options={apiTypeOptions} />
      <TextField label="From (UTC)" type="datetime-local" value={draft.from} onInput={set('from')} />
      <TextField label="To (UTC)" type="datetime-local" value={draft.to} onInput={set('to')} />
      <div class="actions">
        <button type="submit">Apply</button>
        <button type="button" class="secondary" onClick={() => navigate(['generations'])}>
          Clear
        </button>
      </div>
    </form>
  )
}

/** The filters as query parameters: datetime-local values become ISO instants (UTC). */
export function filterQuery(filters: Filters): Record<string, string> {
  const query: Record<string, string> = {}
  for (const name of filterNames) {
    const value = filters[name].trim()
    if (value === '') continue
    query[name] = name === 'from' || name === 'to' ? toIsoUtc(value) : value
  }
  return query
}

function toIsoUtc(local: string): string {
  const date = new Date(/Z|[+-]\d\d:\d\d$/.test(local) ? local : `${local}Z`)
  return Number.isNaN(date.getTime()) ? local : date.toISOString()
}
