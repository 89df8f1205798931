// deploy/grafana-dashboard.json only queries what the gateway exports: every PromQL expression names
// metric families a running gateway's /metrics declares, with labels those series carry, and the
// dashboard has the panels operators look for (spend, tokens, requests, errors, latency, fallbacks,
// event-loop delay).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { parseScrape } from '../support/scrape.ts'

interface Panel {
  readonly title: string
  readonly targets?: readonly { readonly expr: string }[]
  readonly panels?: readonly Panel[]
}

const dashboard = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'deploy', 'grafana-dashboard.json'), 'utf8'),
) as { panels: Panel[] }
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])])
const expressions = panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
)
// Labels Prometheus adds to every scraped series, and the histogram bucket bound.
const scrapeLabels = new Set(['instance', 'job', 'le'])

let upstream: FakeUpstream
let backup: FakeUpstream
let gateway: TestGateway
before(async () => {
  upstream = await startFakeUpstream({ api: 'openai-chat' })
  backup = await startFakeUpstream({ api: 'openai-chat' })
  gateway = await startTestGateway({
    yaml: `providers:
  - { slug: first, api: openai-chat, base_url: "${upstream.url}" }
  - { slug: second, api: openai-chat, base_url: "${backup.url}" }
models:
  - slug: test/model
    endpoints:
      - { provider: first, upstream_model_id: m1, pricing: { prompt: "0.000001", completion: "0.000002" } }
      - { provider: second, upstream_model_id: m2, pricing: { prompt: "0.000001", completion: "0.000002" } }
`,
  })
})
after(async () => {
  await gateway.close()
  await Promise.all([upstream.close(), backup.close()])
})

/** The gateway's metric names an expression queries. */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\b(switchyard_[a-z0-9_]+)\b/g)].map((match) => match[1]!)
}

/** The series names a scrape declares: each `# TYPE` family, and a histogram's _bucket, _sum and _count. */
function exportedNames(scrape: string): Set<string> {
  const names = new Set<string>()
  for (const [, name, type] of scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!)
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name!}${suffix}`)
  }
  return names
}

/** Label names an expression filters or groups by: `{name=...}` matchers and `by (...)` clauses. */
function labelNames(expr: string): string[] {
  const matchers = [...expr.matchAll(/[{,]\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)].map((match) => match[1]!)
  const grouped = [...expr.matchAll(/\bby\s*\(([^)]*)\)/g)].flatMap((match) =>
    match[1]!.split(',').map((name) => name.trim()),
  )
  return [...matchers, ...grouped].filter((name) => name !== '')
}

test('every PromQL expression of the dashboard names metrics and labels the gateway exports', async () => {
  const key = (
    (
      await gateway.inject({
        method: 'POST',
        url: '/api/v1/keys',
        headers: bearer(gateway.adminKey),
        payload: { name: 'd' },
      })
    ).json() as { key: string }
  ).key
  upstream.script({ type: 'error', status: 429 })
  const answered = await gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: bearer(key),
    payload: { model: 'test/model', messages: [{ role: 'user', content: 'Hi' }] },
  })
  assert.equal(answered.statusCode, 200, answered.body)
  for (let round = 0; round < 2; round++) {
    const cached = await gateway.inject({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: { ...bearer(key), 'x-openrouter-cache': 'true' },
      payload: { model: 'test/model', messages: [{ role: 'user', content: 'Cache me' }] },
    })
    assert.equal(cached.statusCode, 200, cached.body)
  }
  const scrape = (await gateway.inject({ method: 'GET', url: '/metrics' })).body
  const exported = exportedNames(scrape)
  const samples = parseScrape(scrape)
  const labelsOf = new Map<string, Set<string>>()
  for (const sample of samples) {
    const names = labelsOf.get(sample.name) ?? new Set<string>()
    for (const name of Object.keys(sample.labels)) names.add(name)
    labelsOf.set(sample.name, names)
  }
  assert.ok(expressions.length >= 10, `${expressions.length} expressions`)
  assert.ok(labelsOf.has('switchyard_fallbacks_total') && labelsOf.has('switchyard_cost_usd_total'))
  assert.ok(labelsOf.has('switchyard_response_cache_lookups_total'), 'the cached calls were looked up')
  for (const { panel, expr } of expressions) {
    const names = metricNames(expr)
    assert.ok(names.length > 0, `${panel}: ${expr} names no switchyard metric`)
    for (const name of names) assert.ok(exported.has(name), `${panel}: ${name} is not in a scrape of the gateway`)
    // Labels are checked on the series this scrape has (an open circuit breaker, say, has none yet).
    if (!names.every((name) => labelsOf.has(name))) continue
    const known = new Set([...scrapeLabels, ...names.flatMap((name) => [...labelsOf.get(name)!])])
    for (const label of labelNames(expr))
      assert.ok(known.has(label), `${panel}: label ${label} is on none of ${names.join(', ')}`)
  }
})

test('the dashboard shows spend, tokens, requests, errors, latency p50/p99, fallbacks, cache and event-loop delay', () => {
  const all = expressions.map(({ expr }) => expr).join('\n')
  for (const metric of [
    'switchyard_cost_usd_total',
    'switchyard_tokens_total',
    'switchyard_generations_total',
    'switchyard_http_request_duration_seconds_bucket',
    'switchyard_fallbacks_total',
    'switchyard_nodejs_eventloop_lag_p99_seconds',
    'switchyard_response_cache_lookups_total',
    'switchyard_response_cache_stored_bytes_total',
  ])
    assert.ok(all.includes(metric), `no panel queries ${metric}`)
  assert.match(all, /histogram_quantile\(0\.5,/)
  assert.match(all, /histogram_quantile\(0\.99,/)
  assert.match(all, /status="failed"/)
})
