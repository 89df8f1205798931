// The queries of the listing benchmark and their timing: each is a GET on the listening gateway over one
// keep-alive connection (undici), timed from the request's start to its body's end, after unmeasured
// warm-up requests. Filter values are chosen from the seeded data through the public API: the rarest
// model and provider by the activity of the whole period (a rare value is the hard case for a listing:
// a page must reach far back), a session and an end user of a record two thirds of the way back.
import { Pool } from 'undici'
import { summarize } from './stats.ts'
import type { BenchKey } from './listing-store.ts'

export interface BenchQuery {
  readonly name: string
  readonly path: string
  /** The key to sign in with (the management key unless the query is a key's own view). */
  readonly key: string
}

export interface QueryTiming {
  readonly name: string
  readonly path: string
  readonly items: number
  readonly p50: number
  readonly p99: number
  readonly max: number
}

export class ListingClient {
  readonly #pool: Pool

  constructor(baseUrl: string) {
    this.#pool = new Pool(baseUrl, { connections: 1 })
  }

  async get(path: string, key: string): Promise<{ data: Record<string, unknown>[]; next_cursor?: string | null }> {
    const response = await this.#pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${key}` } })
    const text = await response.body.text()
    if (response.statusCode !== 200) throw new Error(`bench: GET ${path} answered ${response.statusCode}: ${text}`)
    return JSON.parse(text) as { data: Record<string, unknown>[]; next_cursor?: string | null }
  }

  async time(query: BenchQuery, samples: number, warmup: number): Promise<QueryTiming> {
    let items = 0
    for (let index = 0; index < warmup; index++) items = (await this.get(query.path, query.key)).data.length
    const times: number[] = []
    for (let index = 0; index < samples; index++) {
      const started = performance.now()
      await this.get(query.path, query.key)
      times.push(performance.now() - started)
    }
    const { p50, p99, max } = summarize(times)
    return { name: query.name, path: query.path, items, p50, p99, max }
  }

  close(): Promise<void> {
    return this.#pool.close()
  }
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** Sums the activity of the whole period per `field` and returns the value with the fewest requests. */
function rarest(activity: Record<string, unknown>[], field: 'model' | 'provider_name'): string {
  const totals = new Map<string, number>()
  for (const row of activity) {
    const value = String(row[field])
    if (value !== '') totals.set(value, (totals.get(value) ?? 0) + Number(row.requests))
  }
  return [...totals.entries()].sort((a, b) => a[1] - b[1])[0]![0]
}

export async function benchQueries(
  client: ListingClient,
  adminKey: string,
  keys: readonly BenchKey[],
  endMs: number,
  days: number,
): Promise<BenchQuery[]> {
  const startMs = endMs - days * 86_400_000
  const whole = await client.get(`/api/v1/activity?from=${day(startMs)}&to=${day(endMs)}`, adminKey)
  const deepAt = new Date(startMs + (endMs - startMs) / 3).toISOString()
  const deep = await client.get(`/api/v1/generations?to=${deepAt}&limit=100`, adminKey)
  const session = deep.data.find((item) => item.session_id !== null)?.session_id
  const user = deep.data.find((item) => item.external_user !== null)?.external_user
  if (typeof session !== 'string' || typeof user !== 'string' || typeof deep.next_cursor !== 'string')
    throw new Error('bench: the seeded store has no session or end user two thirds of the way back')
  const busiest = keys[0]!
  const quietest = keys.at(-1)!
  const hourAgo45Days = endMs - 45 * 86_400_000
  const admin = (name: string, path: string): BenchQuery => ({ name, path, key: adminKey })
  const list = '/api/v1/generations?'
  return [
    admin('first page', list),
    admin('deep cursor (60 days back)', `${list}cursor=${deep.next_cursor}`),
    admin('key (busiest)', `${list}api_key_hash=${busiest.hash}`),
    admin('key (quietest)', `${list}api_key_hash=${quietest.hash}`),
    admin('workspace', `${list}workspace_id=${quietest.workspaceId}`),
    admin('model (rarest)', `${list}model=${encodeURIComponent(rarest(whole.data, 'model'))}`),
    admin('provider (rarest)', `${list}provider=${encodeURIComponent(rarest(whole.data, 'provider_name'))}`),
    admin('status=error', `${list}status=error`),
    admin('status=cancelled', `${list}status=cancelled`),
    admin('api_type=messages', `${list}api_type=messages`),
    admin('api_type=decisions', `${list}api_type=decisions`),
    admin(
      'time range (one hour, 45 days back)',
      `${list}from=${new Date(hourAgo45Days).toISOString()}&to=${new Date(hourAgo45Days + 3_600_000).toISOString()}`,
    ),
    admin('user', `${list}user=${encodeURIComponent(user)}`),
    admin('session_id', `${list}session_id=${encodeURIComponent(session)}`),
    admin('model + status=error', `${list}model=${encodeURIComponent(rarest(whole.data, 'model'))}&status=error`),
    { name: 'inference key (its workspace)', path: list, key: quietest.plaintext },
    admin('activity (last 30 days)', '/api/v1/activity'),
    admin('activity (last 30 days, by workspace)', '/api/v1/activity?group_by=workspace'),
    admin('activity (90 days)', `/api/v1/activity?from=${day(startMs)}&to=${day(endMs)}`),
    admin('activity (one key)', `/api/v1/activity?api_key_hash=${busiest.hash}`),
    { name: 'activity (inference key)', path: '/api/v1/activity', key: quietest.plaintext },
  ]
}
