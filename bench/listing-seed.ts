// Seeds the `generations` table of a listing-benchmark store with set-based SQL: one INSERT ... SELECT
// per million rows over a row-number series (a recursive CTE on SQLite, generate_series on PostgreSQL),
// so ten million records take minutes, not hours. Every column is a function of the row number n, so
// both engines get the same records. Rows are spread evenly over `days` days ending at `endMs`, in
// creation order (as the gateway appends them). The spread: keys are skewed (the busiest key makes
// ~7% of the records, the quietest ~0.25%), each key uses five models (most requests on its first),
// 10% of requests served by a model's second provider, 50% chat / 25% responses / 10% messages /
// 14% embeddings / 1% decisions, 2.5% failed and 0.5% cancelled, 30% in a session (~400,000 sessions)
// and 60% with an end user (50,000 users).
import SqliteDatabase from 'better-sqlite3'
import pg from 'pg'

export interface SeedKey {
  readonly hash: string
  readonly workspaceId: string
}

export interface SeedPlan {
  readonly rows: number
  readonly organizationId: string
  readonly keys: readonly SeedKey[]
  readonly endMs: number
  readonly days: number
  /** Called after each chunk with the rows written so far. */
  readonly progress: (written: number) => void
}

/** Providers and their chat models; a model's second provider is the next provider in the list. */
const providers = ['openai', 'anthropic', 'google', 'mistral', 'deepseek', 'groq', 'together', 'fireworks']
export const chatModelCount = 24
const embeddingModelCount = 4
const routesPerModel = 2

export const chatModel = (index: number) => `${providers[index % providers.length]}/model-${index}`
export const providerOf = (model: number, route: number) => providers[(model + route) % providers.length]!

interface Route {
  readonly idx: number
  readonly model: string
  readonly provider: string
  readonly upstream: string
}

/** Chat routes first (model * 2 + route), then the embedding models' routes. */
function routes(): Route[] {
  const all: Route[] = []
  for (let model = 0; model < chatModelCount + embeddingModelCount; model++) {
    const slug = model < chatModelCount ? chatModel(model) : `openai/embed-${model - chatModelCount}`
    for (let route = 0; route < routesPerModel; route++) {
      const provider = model < chatModelCount ? providerOf(model, route) : providers[route]!
      all.push({ idx: model * routesPerModel + route, model: slug, provider, upstream: slug.split('/')[1]! })
    }
  }
  return all
}

type Engine = 'sqlite' | 'postgres'

/**
 * A pseudo-random integer in [0, 999,983) from the row number, a different stream per salt: n times a
 * multiplier modulo one prime, then times another modulo a second prime (both steps are bijections, so
 * every residue, and every last digit, is as likely as any other).
 */
const mix = (salt: number) => `((((n * ${1_000_033 + salt * 7_919}) % 1000003) * ${48_271 + salt * 131}) % 999983)`

/** The SELECT producing records n in [lo, hi]. */
function selectRecords(engine: Engine, plan: SeedPlan, lo: number, hi: number): string {
  const keyDivisor = Math.ceil(1e12 / plan.keys.length)
  const spanMs = plan.days * 86_400_000
  const startMs = plan.endMs - spanMs
  const series =
    engine === 'sqlite'
      ? `(with recursive seq(n) as (select ${lo} union all select n + 1 from seq where n < ${hi}) select n from seq)`
      : `(select n from generate_series(${lo}::bigint, ${hi}::bigint) as series(n))`
  const iso =
    engine === 'sqlite'
      ? "strftime('%Y-%m-%dT%H:%M:%fZ', t_ms / 1000.0, 'unixepoch')"
      : `to_char(to_timestamp(t_ms / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
  const padded = engine === 'sqlite' ? "printf('%010d', n)" : "lpad(n::text, 10, '0')"
  const text = (expression: string) => (engine === 'sqlite' ? `(${expression})` : `(${expression})::text`)
  // u1: key, u2: client API, u3: which of the key's models, u4: route, u5: status, u6..u8: tokens and
  // latency, u9..u11: session and end user.
  const draws = Array.from({ length: 11 }, (_, index) => `${mix(index + 1)} as u${index + 1}`).join(', ')
  const kinds = `case when u2 % 100 < 50 then 0 when u2 % 100 < 75 then 1 when u2 % 100 < 85 then 2 when u2 % 100 < 99 then 3 else 4 end`
  const offset = `case when u3 % 100 < 50 then 0 when u3 % 100 < 75 then 1 when u3 % 100 < 88 then 2 when u3 % 100 < 95 then 3 else 4 end`
  const route = `case when u4 % 100 < 10 then 1 else 0 end`
  const routeIndex = `case when kind = 3 then ${chatModelCount * routesPerModel} + (key_idx % ${embeddingModelCount}) * ${routesPerModel} + ${route}
    else ((key_idx * 7 + ${offset}) % ${chatModelCount}) * ${routesPerModel} + ${route} end`
  const status = `case when u5 % 1000 < 25 then 'failed' when u5 % 1000 < 30 then 'cancelled' else 'completed' end`
  const completion = `case when u5 % 1000 < 25 or kind = 3 then 0 else 10 + u7 % 800 end`
  const cost = `case when u5 % 1000 < 25 then 0 else ((20 + u6 % 3000) * 150 + (${completion}) * 600) * (1 + r.idx % 5) end`
  return `select
      'gen-' || ${text('t_ms / 1000')} || '-' || ${padded}, 'req-' || ${text('n')}, '${plan.organizationId}',
      k.workspace_id, k.hash, case kind when 3 then 'embeddings' when 4 then 'decisions' else 'completions' end,
      case kind when 1 then 'openai-responses' when 2 then 'anthropic-messages' when 3 then 'embeddings' else 'openai-chat' end,
      r.model, r.provider, r.upstream, 'up-' || ${text('n')}, u2 % 2, case when u5 % 1000 between 25 and 29 then 1 else 0 end,
      ${status}, case when u5 % 1000 < 30 then null else 'stop' end, case when u5 % 1000 < 30 then null else 'stop' end,
      20 + u6 % 3000, ${completion}, case when u6 % 3 = 0 then (20 + u6 % 3000) / 2 else 0 end,
      case when r.idx % 8 = 0 then u7 % 300 else 0 end, ${text(cost)}, case when key_idx % 10 = 9 then 1 else 0 end,
      100 + u8 % 5000, 50 + u8 % 5000,
      case when u9 % 10 < 3 then 'sess-' || ${text('key_idx')} || '-' || ${text('u10 % 2000')} end,
      case when u9 % 10 >= 4 then 'user-' || ${text('u11 % 50000')} end,
      '[{"model":"' || r.model || '","provider":"' || r.provider || '","endpointId":"' || r.provider || '/' || r.upstream
        || '","status":' || ${text(`case when u5 % 1000 < 25 then 502 else 200 end`)} || ',"latencyMs":' || ${text('100 + u8 % 5000')} || '}]',
      case when u5 % 1000 < 25 then 502 end, case when u5 % 1000 < 25 then 'Upstream answered 502' end,
      case when u9 % 7 = 0 then 'https://app.example.com/' end, 'bench-client/1.0', ${iso}
    from (
      select n, t_ms, key_idx, ${kinds} as kind, u2, u3, u4, u5, u6, u7, u8, u9, u10, u11
      from (select n, ${startMs} + ((n - 1) * ${spanMs}) / ${plan.rows} as t_ms, (u1 * u1) / ${keyDivisor} as key_idx,
              u2, u3, u4, u5, u6, u7, u8, u9, u10, u11
            from (select n, ${draws} from ${series} as s0) as s1) as s2
    ) as s
    join bench_keys k on k.idx = s.key_idx
    join bench_routes r on r.idx = ${routeIndex}`
}

const columns = `id, request_id, organization_id, workspace_id, key_hash, api_type, dialect, model, provider,
  upstream_model_id, upstream_id, streamed, cancelled, status, finish_reason, native_finish_reason, tokens_prompt,
  tokens_completion, tokens_cached, tokens_reasoning, cost_nano, is_byok, latency_ms, generation_time_ms,
  session_id, end_user, attempts, error_status, error_message, http_referer, user_agent, created_at`

const chunkRows = 1_000_000

function chunks(rows: number): [number, number][] {
  const all: [number, number][] = []
  for (let lo = 1; lo <= rows; lo += chunkRows) all.push([lo, Math.min(rows, lo + chunkRows - 1)])
  return all
}

/** Seeds a SQLite file (no other connection may be open on it): journal off while loading, WAL again after. */
export function seedSqlite(path: string, plan: SeedPlan): void {
  const database = new SqliteDatabase(path)
  try {
    database.pragma('journal_mode = OFF')
    database.pragma('synchronous = OFF')
    database.pragma('cache_size = -262144')
    database.exec('create temp table bench_keys (idx integer primary key, hash text, workspace_id text)')
    database.exec('create temp table bench_routes (idx integer primary key, model text, provider text, upstream text)')
    const addKey = database.prepare('insert into bench_keys values (?, ?, ?)')
    plan.keys.forEach((key, index) => addKey.run(index, key.hash, key.workspaceId))
    const addRoute = database.prepare('insert into bench_routes values (?, ?, ?, ?)')
    for (const route of routes()) addRoute.run(route.idx, route.model, route.provider, route.upstream)
    for (const [lo, hi] of chunks(plan.rows)) {
      database.exec(`insert into generations (${columns}) ${selectRecords('sqlite', plan, lo, hi)}`)
      plan.progress(hi)
    }
  } finally {
    database.pragma('journal_mode = WAL')
    database.close()
  }
}

/** Seeds a PostgreSQL schema (search_path set to it) through one connection. */
export async function seedPostgres(url: string, schema: string, plan: SeedPlan): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`set search_path to ${schema}`)
    await client.query('set synchronous_commit = off')
    await client.query('create temp table bench_keys (idx integer primary key, hash text, workspace_id text)')
    await client.query(
      'create temp table bench_routes (idx integer primary key, model text, provider text, upstream text)',
    )
    for (const [index, key] of plan.keys.entries())
      await client.query('insert into bench_keys values ($1, $2, $3)', [index, key.hash, key.workspaceId])
    for (const route of routes())
      await client.query('insert into bench_routes values ($1, $2, $3, $4)', [
        route.idx,
        route.model,
        route.provider,
        route.upstream,
      ])
    for (const [lo, hi] of chunks(plan.rows)) {
      await client.query(`insert into generations (${columns}) ${selectRecords('postgres', plan, lo, hi)}`)
      plan.progress(hi)
    }
  } finally {
    await client.end()
  }
}
