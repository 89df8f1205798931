// Top keys and workspaces by spend, from the keys' usage windows (GET /api/v1/keys and /workspaces).
import type { ApiClient } from '../api/api-client.ts'
import type { ApiKey, Listed, Workspace } from '../api/types.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { Ranking, rank } from '../components/ranking.tsx'
import { useApi } from '../use-api.ts'
import { keyWindow, windowName, type PeriodDays } from './period.ts'

interface Spenders {
  readonly keys: readonly ApiKey[]
  readonly workspaces: readonly Workspace[]
}

async function loadSpenders(client: ApiClient): Promise<Spenders> {
  const [keys, workspaces] = await Promise.all([
    client.get<Listed<ApiKey>>('/api/v1/keys', { include_disabled: true }),
    client.get<Listed<Workspace>>('/api/v1/workspaces', { limit: 100 }),
  ])
  return { keys: keys.data, workspaces: workspaces.data }
}

export function SpendersSection({ client, days }: { client: ApiClient; days: PeriodDays }) {
  const spenders = useApi(() => loadSpenders(client), [client])
  if (spenders.error !== null) return <ErrorBox message={spenders.error} />
  const window = keyWindow(days)
  const keys = spenders.data?.keys ?? []
  const names = new Map((spenders.data?.workspaces ?? []).map((workspace) => [workspace.id, workspace.name]))
  const empty = spenders.loading ? 'Loading…' : `No spend ${windowName[window]}.`
  const spent = keys.filter((key) => key[window] > 0)
  return (
    <div class="rankings">
      <Ranking
        title={`Top keys by spend, ${windowName[window]}`}
        entries={rank(
          spent,
          (key) => `${key.name} (${key.label})`,
          (key) => key[window],
        )}
        empty={empty}
      />
      <Ranking
        title={`Top workspaces by spend, ${windowName[window]}`}
        entries={rank(
          spent,
          (key) => names.get(key.workspace_id) ?? key.workspace_id,
          (key) => key[window],
        )}
        empty={empty}
      />
    </div>
  )
}
