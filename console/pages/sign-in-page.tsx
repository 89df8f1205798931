// Sign in with a management key (the organization) or an inference key (its own usage, read-only).
import { useState } from 'preact/hooks'
import { describeError } from '../api/api-error.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { signIn, type Session } from '../session.ts'

export function SignInPage({
  onSignedIn,
  initialError,
}: {
  onSignedIn: (session: Session) => void
  initialError: string | null
}) {
  const [secret, setSecret] = useState('')
  const [error, setError] = useState<string | null>(initialError)
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    try {
      onSignedIn(await signIn(secret.trim()))
    } catch (failure) {
      setError(describeError(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="sign-in">
      <form class="card" onSubmit={submit}>
        <h1>Switchyard console</h1>
        <p class="muted">
          Sign in with a management key to manage the organization, or with an inference key to see that key's own usage
          (read-only). The key stays in this tab's session storage and is sent only as a bearer token.
        </p>
        <label>
          API key
          <input
            type="password"
            name="key"
            autocomplete="off"
            required
            value={secret}
            onInput={(event) => setSecret(event.currentTarget.value)}
          />
        </label>
        <ErrorBox message={error} />
        <button type="submit" disabled={busy || secret.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  )
}
