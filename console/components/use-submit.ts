// A form's submit state: busy while the request runs, the API's error message when it fails.
import { useState } from 'preact/hooks'
import { describeError } from '../api/api-error.ts'

export function useSubmit(action: () => Promise<void>) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const submit = async (event?: Event) => {
    event?.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await action()
    } catch (failure) {
      setError(describeError(failure))
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, submit }
}
