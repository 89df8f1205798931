// The keys of the organization, 100 a page (the API's page), with their usage against their limits.
// Search filters the loaded page by name, label, hash or workspace.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import type { ApiKey, Listed } from '../api/types.ts'
import { DataTable, type Column } from '../components/data-table.tsx'
import { ErrorBox } from '../components/error-box.tsx'
import { CheckboxField, TextField } from '../components/form-fields.tsx'
import { Pager } from '../components/pager.tsx'
import { UsageBar } from '../components/usage-bar.tsx'
import { formatTime } from '../format.ts'
import { useApi } from '../use-api.ts'
import { KeyActions } from './key-actions.tsx'
import { KeyRateLimits } from './key-rate-limits.tsx'

const pageSize = 100

interface KeyListProps {
  readonly client: ApiClient
  /** Changes when a key was created or edited elsewhere on the page: the list loads again. */
  readonly version: number
  readonly onEdit: (key: ApiKey) => void
}

function keyColumns(client: ApiClient, onEdit: (key: ApiKey) => void, onChanged: () => void): Column<ApiKey>[] {
  return [
    { title: 'Name', render: (key) => <strong>{key.name}</strong> },
    { title: 'Key', render: (key) => <code>{key.label}</code> },
    {
      title: 'Status',
      render: (key) => (
        <span class={`badge ${key.disabled ? 'off' : 'on'}`}>{key.disabled ? 'disabled' : 'active'}</span>
      ),
    },
    { title: 'Usage vs limit', render: (key) => <UsageBar usage={key} /> },
    { title: 'Rate limits', render: (key) => <KeyRateLimits apiKey={key} /> },
    { title: 'Expires', render: (key) => formatTime(key.expires_at) },
    { title: 'Last used', render: (key) => formatTime(key.last_used_at) },
    {
      title: 'Actions',
      render: (key) => <KeyActions client={client} apiKey={key} onEdit={() => onEdit(key)} onChanged={onChanged} />,
    },
  ]
}

export function KeyList({ client, version, onEdit }: KeyListProps) {
  const [offset, setOffset] = useState(0)
  const [withDisabled, setWithDisabled] = useState(true)
  const [search, setSearch] = useState('')
  const keys = useApi(
    () => client.get<Listed<ApiKey>>('/api/v1/keys', { offset, include_disabled: withDisabled }),
    [client, offset, withDisabled, version],
  )
  const needle = search.trim().toLowerCase()
  const rows = (keys.data?.data ?? []).filter((key) =>
    `${key.name} ${key.label} ${key.hash} ${key.workspace_id}`.toLowerCase().includes(needle),
  )
  const count = keys.data?.data.length ?? 0
  return (
    <>
      <div class="filters">
        <TextField
          label="Search this page"
          type="search"
          value={search}
          onInput={setSearch}
          placeholder="name, label, hash"
        />
        <CheckboxField label="Include disabled keys" checked={withDisabled} onChange={setWithDisabled} />
      </div>
      <ErrorBox message={keys.error} />
      <DataTable
        label="keys"
        columns={keyColumns(client, onEdit, keys.reload)}
        rows={rows}
        rowKey={(key) => key.hash}
        empty={keys.loading ? 'Loading…' : 'No keys.'}
      />
      <Pager
        label={`keys ${offset + 1}–${offset + count}`}
        onPrevious={offset > 0 ? () => setOffset(Math.max(0, offset - pageSize)) : undefined}
        onNext={count === pageSize ? () => setOffset(offset + pageSize) : undefined}
      />
    </>
  )
}
