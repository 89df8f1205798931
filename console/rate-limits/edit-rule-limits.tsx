// Change a rate-limit rule's limits in place, in its row (PATCH /api/v1/rate-limits/{id}). Its target
// and model stay (the API changes only the limits). An empty input lifts that limit; the inputs carry
// the API's rules (whole numbers >= 1), and the API's refusal to lift both is shown as it wrote it.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { TextField, optionalNumber } from '../components/form-fields.tsx'
import { useSubmit } from '../components/use-submit.ts'
import type { RateLimitRule } from './rate-limit-rule.ts'

interface EditRuleLimitsProps {
  readonly client: ApiClient
  readonly rule: RateLimitRule
  readonly onSaved: () => void
  readonly onCancel: () => void
}

const shown = (limit: number | null) => (limit === null ? '' : String(limit))

export function EditRuleLimits({ client, rule, onSaved, onCancel }: EditRuleLimitsProps) {
  const [requests, setRequests] = useState(shown(rule.requests_per_minute))
  const [tokens, setTokens] = useState(shown(rule.tokens_per_minute))
  const { busy, error, submit } = useSubmit(async () => {
    await client.send('PATCH', `/api/v1/rate-limits/${encodeURIComponent(rule.id)}`, {
      requests_per_minute: optionalNumber(requests),
      tokens_per_minute: optionalNumber(tokens),
    })
    onSaved()
  })
  return (
    <form class="inline-form" onSubmit={submit} aria-label="edit rate-limit rule">
      <TextField label="Requests per minute" type="number" min={1} step="1" value={requests} onInput={setRequests} />
      <TextField label="Tokens per minute" type="number" min={1} step="1" value={tokens} onInput={setTokens} />
      <ErrorBox message={error} />
      <span class="row-actions">
        <button type="submit" class="small" disabled={busy}>
          Save
        </button>
        <button type="button" class="small secondary" onClick={onCancel}>
          Cancel
        </button>
      </span>
    </form>
  )
}
