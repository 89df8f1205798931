// "Send test event" on a destination (POST /api/v1/observability/destinations/{id}/test): the gateway
// sends one synthetic generation through the destination's exporter now; the button shows whether the
// destination took it, or its error and the HTTP status it answered. Nothing is recorded, so the
// destination's delivery counts and last error do not change.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { useSubmit } from '../components/use-submit.ts'

interface TestEvent {
  readonly generation_id: string
  readonly delivered: boolean
  readonly error: { readonly message: string; readonly status: number | null } | null
}

/** How an outcome reads: `Delivered (gen-test-…)` or `Not delivered (HTTP 503): webhook answered HTTP 503`. */
function describeTestEvent(event: TestEvent): string {
  if (event.delivered) return `Delivered (${event.generation_id})`
  const status = event.error?.status ?? null
  return `Not delivered${status === null ? '' : ` (HTTP ${status})`}: ${event.error?.message ?? 'no reason given'}`
}

export function TestEventButton({ client, path }: { client: ApiClient; path: string }) {
  const [outcome, setOutcome] = useState<TestEvent | null>(null)
  const action = useSubmit(async () => {
    setOutcome(null)
    setOutcome((await client.send<{ data: TestEvent }>('POST', path)).data)
  })
  return (
    <span class="row-actions">
      <button type="button" class="small" disabled={action.busy} onClick={() => action.submit()}>
        {action.busy ? 'Sending…' : 'Send test event'}
      </button>
      {outcome !== null && (
        <span role="status" class={`badge wrap ${outcome.delivered ? 'on' : 'off'}`}>
          {describeTestEvent(outcome)}
        </span>
      )}
      <ErrorBox message={action.error} />
    </span>
  )
}
