// Overview: spend and requests over the period, top spenders, error rate and latency. A management key
// sees the organization; any other key sees its own usage.
import type { ActivityRow, CurrentKey } from '../api/types.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { UsageBar } from '../components/usage-bar.tsx'
import { ActivitySection } from '../overview/activity-section.tsx'
import { loadGenerationStats } from '../overview/generation-stats.ts'
import { periodDates, periods, readPeriod } from '../overview/period.ts'
import { ReliabilitySection } from '../overview/reliability-section.tsx'
import { SpendersSection } from '../overview/spenders-section.tsx'
import { href, type Route } from '../router.ts'
import type { Session } from '../session.ts'
import { useApi } from '../use-api.ts'

/** The filter that narrows a self-service view to the signed-in key (none for a management key). */
export function ownScope(session: Session): { api_key_hash?: string } {
  return session.isManagement || session.keyHash === null ? {} : { api_key_hash: session.keyHash }
}

/** The signed-in inference key's usage against its limit, read again with each visit (GET /api/v1/key). */
function OwnKey({ session }: { session: Session }) {
  const key = useApi(async () => (await session.client.get<{ data: CurrentKey }>('/api/v1/key')).data, [session])
  return (
    <div class="card">
      <h3>This key</h3>
      <ErrorBox message={key.error} />
      <UsageBar usage={key.data ?? session.key} />
    </div>
  )
}

export function OverviewPage({ route, session }: { route: Route; session: Session }) {
  const days = readPeriod(route.params.get('days'))
  const dates = periodDates(days)
  const from = dates[0]!
  const scope = ownScope(session)
  const activity = useApi(
    async () =>
      (
        await session.client.get<{ data: ActivityRow[] }>('/api/v1/activity', {
          from,
          to: dates[dates.length - 1],
          ...scope,
        })
      ).data,
    [session, days],
  )
  const stats = useApi(
    () => loadGenerationStats(session.client, { from: `${from}T00:00:00.000Z`, ...scope }),
    [session, days],
  )
  return (
    <section class="page">
      <div class="page-head">
        <h2>Overview</h2>
        <nav class="periods" aria-label="period">
          {periods.map((period) => (
            <a
              key={period}
              href={href(['overview'], { days: String(period) })}
              aria-current={period === days ? 'page' : undefined}
            >
              {period === 1 ? 'Today' : `${period} days`}
            </a>
          ))}
        </nav>
      </div>
      {!session.isManagement && <OwnKey session={session} />}
      <ActivitySection activity={activity} dates={dates} />
      <ReliabilitySection stats={stats} />
      {session.isManagement && <SpendersSection client={session.client} days={days} />}
    </section>
  )
}
