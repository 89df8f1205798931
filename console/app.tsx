// The console shell: sign-in until a key is accepted, then the navigation and the page of the route.
import { useEffect, useState } from 'preact/hooks'
import { describeError } from './api/api-error.ts'
import { forgetKey, signIn, storedKey, type Session } from './session.ts'
import { useRoute } from './router.ts'
import { SignInPage } from './pages/sign-in-page.tsx'
import { Navigation } from './components/navigation.tsx'
import { pageFor } from './pages/page-table.tsx'

export function App() {
  const [session, setSession] = useState<Session | null>(null)
  const [restoring, setRestoring] = useState(() => storedKey() !== null)
  const [error, setError] = useState<string | null>(null)
  const route = useRoute()

  useEffect(() => {
    const secret = storedKey()
    if (secret === null) return
    signIn(secret)
      .then(setSession, (failure: unknown) => {
        forgetKey()
        setError(describeError(failure))
      })
      .finally(() => setRestoring(false))
  }, [])

  if (restoring) return <p class="loading">Signing in…</p>
  if (session === null) return <SignInPage onSignedIn={setSession} initialError={error} />
  const signOut = () => {
    forgetKey()
    setSession(null)
    setError(null)
  }
  const page = pageFor(route.segments[0] ?? '', session)
  return (
    <div class="shell">
      <header class="top">
        <a class="brand" href="#/">
          Switchyard
        </a>
        <span class="who" title={session.isManagement ? 'management key' : 'inference key (read-only)'}>
          {session.key.label} · {session.isManagement ? 'management' : 'self-service'}
        </span>
        <button type="button" class="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <Navigation session={session} current={page.name} />
      <main>{page.render(route, session)}</main>
    </div>
  )
}
