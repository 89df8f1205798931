// A key row's actions: edit, disable or enable, delete (after a confirmation).
import type { ApiClient } from '../api/api-client.ts'
import type { ApiKey } from '../api/types.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { useSubmit } from '../components/use-submit.ts'

interface KeyActionsProps {
  readonly client: ApiClient
  readonly apiKey: ApiKey
  readonly onEdit: () => void
  readonly onChanged: () => void
}

export function KeyActions({ client, apiKey, onEdit, onChanged }: KeyActionsProps) {
  const path = `/api/v1/keys/${encodeURIComponent(apiKey.hash)}`
  const toggle = useSubmit(async () => {
    await client.send('PATCH', path, { disabled: !apiKey.disabled })
    onChanged()
  })
  const remove = useSubmit(async () => {
    if (!confirm(`Delete the key “${apiKey.name}”? Requests with it will be refused.`)) return
    await client.send('DELETE', path)
    onChanged()
  })
  return (
    <span class="row-actions">
      <button type="button" class="small" onClick={onEdit}>
        Edit
      </button>
      <button type="button" class="small" disabled={toggle.busy} onClick={() => toggle.submit()}>
        {apiKey.disabled ? 'Enable' : 'Disable'}
      </button>
      <button type="button" class="small danger" disabled={remove.busy} onClick={() => remove.submit()}>
        Delete
      </button>
      <ErrorBox message={toggle.error ?? remove.error} />
    </span>
  )
}
