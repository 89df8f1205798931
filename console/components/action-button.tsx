// A button that sends one API call (delete, validate, enable, ...), after a confirmation when asked,
// and shows the API's error beside it.
import type { ComponentChildren } from 'preact'
import type { ApiClient } from '../api/api-client.ts'
import { ErrorBox } from './error-box.tsx'
import { useSubmit } from './use-submit.ts'

interface ActionButtonProps {
  readonly client: ApiClient
  readonly method: 'POST' | 'DELETE' | 'PATCH' | 'PUT'
  readonly path: string
  readonly body?: unknown
  readonly confirmText?: string
  readonly danger?: boolean
  readonly onDone: (answer: unknown) => void
  readonly children: ComponentChildren
}

export function ActionButton({ client, method, path, body, confirmText, danger, onDone, children }: ActionButtonProps) {
  const action = useSubmit(async () => {
    if (confirmText !== undefined && !confirm(confirmText)) return
    onDone(await client.send(method, path, body))
  })
  return (
    <span class="row-actions">
      <button
        type="button"
        class={danger === true ? 'small danger' : 'small'}
        disabled={action.busy}
        onClick={() => action.submit()}
      >
        {children}
      </button>
      <ErrorBox message={action.error} />
    </span>
  )
}
