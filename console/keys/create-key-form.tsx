// Create an inference key: name, spending limit and its reset, expiry, workspace. The answer carries the
// key's plaintext, shown once by CreatedKey.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import type { ApiKey } from '../api/types.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { SelectField, TextField, limitResetOptions, optionalNumber } from '../components/form-fields.tsx'
import { useSubmit } from '../components/use-submit.ts'

export interface Created {
  readonly key: string
  readonly data: ApiKey
}

export function CreateKeyForm({ client, onCreated }: { client: ApiClient; onCreated: (created: Created) => void }) {
  const [name, setName] = useState('')
  const [limit, setLimit] = useState('')
  const [reset, setReset] = useState('')
  const [expires, setExpires] = useState('')
  const [workspace, setWorkspace] = useState('')
  const { busy, error, submit } = useSubmit(async () => {
    const created = await client.send<Created>('POST', '/api/v1/keys', {
      name: name.trim(),
      limit: optionalNumber(limit),
      limit_reset: reset === '' ? null : reset,
      expires_at: expires === '' ? null : new Date(expires).toISOString(),
      ...(workspace.trim() === '' ? {} : { workspace_id: workspace.trim() }),
    })
    setName('')
    setLimit('')
    onCreated(created)
  })
  return (
    <form class="card form-grid" onSubmit={submit} aria-label="create key">
      <h3>Create a key</h3>
      <TextField label="Name" value={name} onInput={setName} required maxLength={200} />
      <TextField label="Limit (USD, empty: none)" type="number" min={0} step="any" value={limit} onInput={setLimit} />
      <SelectField label="Limit resets" value={reset} onChange={setReset} options={limitResetOptions} />
      <TextField label="Expires (UTC, empty: never)" type="datetime-local" value={expires} onInput={setExpires} />
      <TextField label="Workspace id (empty: default)" value={workspace} onInput={setWorkspace} />
      <ErrorBox message={error} />
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create key'}
      </button>
    </form>
  )
}
