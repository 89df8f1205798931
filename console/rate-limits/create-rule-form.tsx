// Create a rate-limit rule on a key or a workspace, for every model or one model
// (POST /api/v1/rate-limits). The inputs carry the API's rules: one target, whole numbers >= 1, and at
// least one of the two limits (the API says so when both are empty).
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { SelectField, TextField, optionalNumber } from '../components/form-fields.tsx'
import { useSubmit } from '../components/use-submit.ts'

export interface RuleTarget {
  readonly scope: 'key' | 'workspace'
  readonly id: string
}

interface CreateRuleFormProps {
  readonly client: ApiClient
  /** The target the page is filtered to, if any: the form starts on it. */
  readonly initial: RuleTarget | null
  readonly onCreated: () => void
}

const scopeOptions = [
  ['key', 'a key (by hash)'],
  ['workspace', 'a workspace (id or slug)'],
] as const

export function CreateRuleForm({ client, initial, onCreated }: CreateRuleFormProps) {
  const [scope, setScope] = useState<string>(initial?.scope ?? 'key')
  const [target, setTarget] = useState(initial?.id ?? '')
  const [model, setModel] = useState('')
  const [requests, setRequests] = useState('')
  const [tokens, setTokens] = useState('')
  const { busy, error, submit } = useSubmit(async () => {
    await client.send('POST', '/api/v1/rate-limits', {
      [scope === 'key' ? 'key_hash' : 'workspace_id']: target.trim(),
      model: model.trim() === '' ? null : model.trim(),
      requests_per_minute: optionalNumber(requests),
      tokens_per_minute: optionalNumber(tokens),
    })
    setModel('')
    setRequests('')
    setTokens('')
    onCreated()
  })
  return (
    <form class="card form-grid" onSubmit={submit} aria-label="create rate-limit rule">
      <h3>Add a rule</h3>
      <SelectField label="Set on" value={scope} onChange={setScope} options={scopeOptions} />
      <TextField
        label={scope === 'key' ? 'Key hash' : 'Workspace'}
        value={target}
        onInput={setTarget}
        required
        maxLength={128}
      />
      <TextField label="Model (empty: every model)" value={model} onInput={setModel} maxLength={256} />
      <TextField label="Requests per minute" type="number" min={1} step="1" value={requests} onInput={setRequests} />
      <TextField label="Tokens per minute" type="number" min={1} step="1" value={tokens} onInput={setTokens} />
      <ErrorBox message={error} />
      <button type="submit" disabled={busy}>
        Add rule
      </button>
    </form>
  )
}
