// Edit a key's name, limit, limit reset and BYOK setting (PATCH /api/v1/keys/{hash}). The API sets a
// key's expiry only when the key is created.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import type { ApiKey } from '../api/types.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { CheckboxField, SelectField, TextField, limitResetOptions, optionalNumber } from '../components/form-fields.tsx'
import { useSubmit } from '../components/use-submit.ts'

interface EditKeyFormProps {
  readonly client: ApiClient
  readonly apiKey: ApiKey
  readonly onSaved: () => void
  readonly onCancel: () => void
}

export function EditKeyForm({ client, apiKey, onSaved, onCancel }: EditKeyFormProps) {
  const [name, setName] = useState(apiKey.name)
  const [limit, setLimit] = useState(apiKey.limit === null ? '' : String(apiKey.limit))
  const [reset, setReset] = useState<string>(apiKey.limit_reset ?? '')
  const [byok, setByok] = useState(apiKey.include_byok_in_limit)
  const { busy, error, submit } = useSubmit(async () => {
    await client.send('PATCH', `/api/v1/keys/${encodeURIComponent(apiKey.hash)}`, {
      name: name.trim(),
      limit: optionalNumber(limit),
      limit_reset: reset === '' ? null : reset,
      include_byok_in_limit: byok,
    })
    onSaved()
  })
  return (
    <form class="card form-grid" onSubmit={submit} aria-label="edit key">
      <h3>Edit “{apiKey.name}”</h3>
      <TextField label="Name" value={name} onInput={setName} required maxLength={200} />
      <TextField label="Limit (USD, empty: none)" type="number" min={0} step="any" value={limit} onInput={setLimit} />
      <SelectField label="Limit resets" value={reset} onChange={setReset} options={limitResetOptions} />
      <CheckboxField label="Count BYOK usage against the limit" checked={byok} onChange={setByok} />
      <p class="muted">Expires: {apiKey.expires_at ?? 'never'} (set when a key is created).</p>
      <ErrorBox message={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
