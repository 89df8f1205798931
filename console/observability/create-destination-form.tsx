// Create an observability destination (POST /api/v1/observability/destinations): its type, name,
// workspace, the type's config fields, sampling rate and privacy mode. The types and their fields come
// from the API (GET /api/v1/observability/destination-types; only the deliverable ones are offered). The
// inputs carry the API's rules (required fields, name length, sampling rate 0.0001 to 1); what the API
// still refuses (an unreachable or private URL, a sixth destination of a type) is shown as it said it.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { CheckboxField, SelectField, TextField } from '../components/form-fields.tsx'
import { useSubmit } from '../components/use-submit.ts'
import { ConfigInputs, configBody } from './config-inputs.tsx'
import type { DestinationType } from './destination-type.ts'

interface CreateDestinationFormProps {
  readonly client: ApiClient
  /** The deliverable types, as the API lists them. */
  readonly types: readonly DestinationType[]
  readonly onCreated: () => void
}

export function CreateDestinationForm({ client, types, onCreated }: CreateDestinationFormProps) {
  const [type, setType] = useState(types.some((entry) => entry.type === 'webhook') ? 'webhook' : (types[0]?.type ?? ''))
  const [name, setName] = useState('')
  const [workspace, setWorkspace] = useState('')
  const [config, setConfig] = useState<Record<string, string>>({})
  const [sampling, setSampling] = useState('')
  const [privacy, setPrivacy] = useState(false)
  const fields = types.find((entry) => entry.type === type)?.config ?? []
  const typeOptions = types.map((entry) => [entry.type, entry.type] as const)
  const { busy, error, submit } = useSubmit(async () => {
    await client.send('POST', '/api/v1/observability/destinations', {
      type,
      name: name.trim(),
      config: configBody(fields, config),
      ...(workspace.trim() === '' ? {} : { workspace_id: workspace.trim() }),
      ...(sampling.trim() === '' ? {} : { sampling_rate: Number(sampling) }),
      privacy_mode: privacy,
    })
    setName('')
    setConfig({})
    onCreated()
  })
  const chooseType = (next: string) => {
    setType(next)
    setConfig({})
  }
  return (
    <form class="card form-grid" onSubmit={submit} aria-label="create destination">
      <h3>Add a destination</h3>
      <SelectField label="Type" value={type} onChange={chooseType} options={typeOptions} />
      <TextField label="Name" value={name} onInput={setName} required maxLength={200} />
      <TextField label="Workspace id (empty: default)" value={workspace} onInput={setWorkspace} />
      <ConfigInputs
        key={type}
        fields={fields}
        values={config}
        onChange={(field, value) => setConfig({ ...config, [field]: value })}
      />
      <TextField
        label="Sampling rate (0.0001–1, empty: 1)"
        type="number"
        min={0.0001}
        max={1}
        step="any"
        value={sampling}
        onInput={setSampling}
      />
      <CheckboxField label="Privacy mode (no prompts or outputs)" checked={privacy} onChange={setPrivacy} />
      <ErrorBox message={error} />
      <button type="submit" disabled={busy}>
        Add destination
      </button>
    </form>
  )
}
