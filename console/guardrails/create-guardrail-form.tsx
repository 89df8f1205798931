// Create a guardrail: name, workspace, spending limit and its reset, allowed models.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { SelectField, TextField, limitResetOptions, optionalNumber } from '../components/form-fields.tsx'
import { useSubmit } from '../components/use-submit.ts'

export function CreateGuardrailForm({ client, onCreated }: { client: ApiClient; onCreated: () => void }) {
  const [name, setName] = useState('')
  const [workspace, setWorkspace] = useState('')
  const [limit, setLimit] = useState('')
  const [reset, setReset] = useState('')
  const [models, setModels] = useState('')
  const { busy, error, submit } = useSubmit(async () => {
    const allowed = models.split(/[\s,]+/).filter((model) => model !== '')
    await client.send('POST', '/api/v1/guardrails', {
      name: name.trim(),
      ...(workspace.trim() === '' ? {} : { workspace_id: workspace.trim() }),
      limit_usd: optionalNumber(limit),
      reset_interval: reset === '' ? null : reset,
      allowed_models: allowed.length === 0 ? null : allowed,
    })
    setName('')
    onCreated()
  })
  return (
    <form class="card form-grid" onSubmit={submit} aria-label="create guardrail">
      <h3>Create a guardrail</h3>
      <TextField label="Name" value={name} onInput={setName} required maxLength={200} />
      <TextField label="Workspace id (empty: default)" value={workspace} onInput={setWorkspace} />
      <TextField label="Limit (USD, empty: none)" type="number" min={0} step="any" value={limit} onInput={setLimit} />
      <SelectField label="Limit resets" value={reset} onChange={setReset} options={limitResetOptions} />
      <TextField label="Allowed models (comma-separated, empty: all)" value={models} onInput={setModels} />
      <ErrorBox message={error} />
      <button type="submit" disabled={busy}>
        Create guardrail
      </button>
    </form>
  )
}
