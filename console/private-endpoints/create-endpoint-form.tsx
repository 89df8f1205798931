// Create a private endpoint as a draft (POST /api/v1/private-endpoints): the model id clients send, the
// upstream API, the model id on the server, its base URL, declared region and ZDR, negotiated prices
// (USD per token, decimal strings) and an optional credential. The inputs carry the API's rules; what
// the API still refuses (an unknown provider, a URL the egress policy forbids) is shown as it said it.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { SelectField, TextField } from '../components/form-fields.tsx'
import { useSubmit } from '../components/use-submit.ts'

const regionOptions = [
  ['', 'undeclared'],
  ['global', 'global'],
  ['europe', 'europe'],
  ['us', 'us'],
] as const
const zdrOptions = [
  ['', 'undeclared'],
  ['true', 'yes: keeps no data'],
  ['false', 'no'],
] as const
const price = { required: true, maxLength: 40, pattern: '\\d+(\\.\\d+)?', title: 'USD per token, e.g. 0.0000004' }
const blank = {
  model: '',
  provider: 'openai-chat',
  upstreamModel: '',
  baseUrl: '',
  region: '',
  zdr: '',
  prompt: '',
  completion: '',
  apiKey: '',
}

function createBody(fields: Fields) {
  return {
    model_permaslug: fields.model.trim(),
    provider_slug: fields.provider.trim(),
    upstream_model_id: fields.upstreamModel.trim(),
    base_url: fields.baseUrl.trim(),
    declared_region: fields.region === '' ? null : fields.region,
    declared_zdr: fields.zdr === '' ? null : fields.zdr === 'true',
    pricing: { prompt: fields.prompt.trim(), completion: fields.completion.trim() },
    ...(fields.apiKey === '' ? {} : { api_key: fields.apiKey }),
  }
}

type Fields = typeof blank

/** The endpoint's declarations, prices and credential. */
function DeclaredFields({ fields, set }: { fields: Fields; set: (field: keyof Fields) => (value: string) => void }) {
  return (
    <>
      <SelectField label="Declared region" value={fields.region} onChange={set('region')} options={regionOptions} />
      <SelectField label="Declared zero data retention" value={fields.zdr} onChange={set('zdr')} options={zdrOptions} />
      <TextField label="Prompt price (USD per token)" value={fields.prompt} onInput={set('prompt')} {...price} />
      <TextField
        label="Completion price (USD per token)"
        value={fields.completion}
        onInput={set('completion')}
        {...price}
      />
      <TextField
        label="Credential (optional, never shown again)"
        type="password"
        value={fields.apiKey}
        onInput={set('apiKey')}
        maxLength={8192}
      />
    </>
  )
}

export function CreateEndpointForm({ client, onCreated }: { client: ApiClient; onCreated: () => void }) {
  const [fields, setFields] = useState(blank)
  const set = (field: keyof typeof blank) => (value: string) => setFields({ ...fields, [field]: value })
  const { busy, error, submit } = useSubmit(async () => {
    await client.send('POST', '/api/v1/private-endpoints', createBody(fields))
    setFields({ ...fields, model: '', upstreamModel: '', apiKey: '' })
    onCreated()
  })
  return (
    <form class="card form-grid" onSubmit={submit} aria-label="create private endpoint">
      <h3>Create a draft endpoint</h3>
      <TextField
        label="Model id (clients send it)"
        value={fields.model}
        onInput={set('model')}
        required
        maxLength={200}
        pattern="\S+"
      />
      <TextField
        label="Provider (openai-chat, openai-responses, anthropic, gemini or a configured slug)"
        value={fields.provider}
        onInput={set('provider')}
        required
        maxLength={100}
      />
      <TextField
        label="Upstream model id"
        value={fields.upstreamModel}
        onInput={set('upstreamModel')}
        required
        maxLength={200}
      />
      <TextField
        label="Base URL"
        type="url"
        value={fields.baseUrl}
        onInput={set('baseUrl')}
        required
        maxLength={2048}
      />
      <DeclaredFields fields={fields} set={set} />
      <ErrorBox message={error} />
      <button type="submit" disabled={busy}>
        Create draft
      </button>
    </form>
  )
}
