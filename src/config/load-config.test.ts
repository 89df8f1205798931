import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, ConfigError } from './load-config.ts'
import { providerApis } from '../domain/inference/provider-api.ts'

function withYaml(yaml: string, env: Record<string, string> = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'switchyard-config-'))
  writeFileSync(join(cwd, 'switchyard.yaml'), yaml)
  return () => loadConfig({ env, cwd })
}

function problemsOf(load: () => unknown): readonly string[] {
  try {
    load()
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`)
    return error.problems
  }
  assert.fail('expected the config to be refused')
}

const provider = `providers:
  - slug: acme
    api: openai-chat
    base_url: http://127.0.0.1:9000/v1
    api_key: \${ACME_KEY}
`

test('defaults apply when there is no config file and no environment', () => {
  const config = loadConfig({ env: {}, cwd: mkdtempSync(join(tmpdir(), 'switchyard-config-')) })
  assert.equal(config.server.port, 8080)
  assert.equal(config.server.host, '0.0.0.0')
  assert.match(config.store.database_url, /^sqlite:.*data\/switchyard\.db$/)
  assert.deepEqual(config.interns.workspaces, ['*'])
  assert.equal(config.credits.enforce, false)
  assert.equal(config.rate_limits.per_key.requests_per_minute, null)
  assert.equal(config.config_path, null)
  assert.ok(Object.isFrozen(config.server))
})

test('environment variables are interpolated, with ${NAME:-fallback}', () => {
  const config = withYaml(`${provider}server:\n  regional_hostnames: ["\${REGION_HOST:-eu.example.com}"]\n`, {
    ACME_KEY: 'k-123',
  })()
  assert.equal(config.providers[0]?.api_key, 'k-123')
  assert.deepEqual(config.server.regional_hostnames, ['eu.example.com'])
})

test('a missing environment variable is reported with its path', () => {
  const problems = problemsOf(withYaml(provider))
  assert.deepEqual(problems, [
    'providers[0].api_key: environment variable ACME_KEY is not set (use ${ACME_KEY:-default} for a fallback)',
  ])
})

test('an unknown key is refused with its path', () => {
  const problems = problemsOf(withYaml('credits:\n  enforce: true\n  enforced: true\n'))
  assert.deepEqual(problems, ['credits.enforced: unknown field'])
})

test('a value of the wrong type is refused with its path and the accepted types', () => {
  assert.deepEqual(problemsOf(withYaml('vault:\n  writes_disabled: "yes"\n')), [
    'vault.writes_disabled: must be boolean',
  ])
  assert.deepEqual(problemsOf(withYaml('rate_limits:\n  per_key:\n    requests_per_minute: "many"\n')), [
    'rate_limits.per_key.requests_per_minute: must be integer or null',
  ])
  assert.deepEqual(problemsOf(withYaml(provider.replace('openai-chat', 'openai-chatty'), { ACME_KEY: 'x' })), [
    `providers[0].api: must be one of ${providerApis.map((api) => `"${api}"`).join(', ')}`,
  ])
})

test('every problem is reported at once', () => {
  const yaml = 'server:\n  port: 1\negress:\n  allow_private_networks: 3\nmodels:\n  - slug: a/b\n'
  const problems = problemsOf(withYaml(yaml))
  assert.deepEqual([...problems].sort(), [
    'egress.allow_private_networks: must be boolean',
    'models[0].endpoints: is required',
    'server.port: unknown field',
  ])
})

test('duplicate provider slugs are refused', () => {
  const yaml = `${provider}  - slug: acme\n    api: anthropic\n    base_url: http://x\n`
  assert.deepEqual(problemsOf(withYaml(yaml, { ACME_KEY: 'x' })), [
    'providers[1].slug: "acme" is already used by providers[0]',
  ])
})

test('a decimal price must be a decimal string', () => {
  const yaml = `${provider}models:\n  - slug: acme/fast-1\n    endpoints:\n      - provider: acme\n        upstream_model_id: fast-1\n        pricing: { prompt: "0.0000002", completion: "-1" }\n`
  const problems = problemsOf(withYaml(yaml, { ACME_KEY: 'x' }))
  assert.equal(problems.length, 1)
  assert.match(problems[0] ?? '', /^models\[0\]\.endpoints\[0\]\.pricing\.completion: /)
})

test('environment problems are reported together', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'switchyard-config-'))
  const problems = problemsOf(() =>
    loadConfig({
      env: { PORT: '99999', DATABASE_URL: 'mysql://x', SWITCHYARD_MASTER_KEY: 'c2hvcnQ=', LOG_LEVEL: 'loud' },
      cwd,
    }),
  )
  assert.equal(problems.length, 4)
  assert.match(problems.join('\n'), /PORT: must be an integer/)
  assert.match(problems.join('\n'), /DATABASE_URL: must be sqlite/)
  assert.match(problems.join('\n'), /SWITCHYARD_MASTER_KEY: must be 32 bytes/)
  assert.match(problems.join('\n'), /LOG_LEVEL: must be one of/)
})

test('SWITCHYARD_CONFIG names the file; YAML syntax errors are reported', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'switchyard-config-'))
  writeFileSync(join(cwd, 'other.yaml'), 'credits: [unclosed\n')
  const problems = problemsOf(() => loadConfig({ env: { SWITCHYARD_CONFIG: 'other.yaml' }, cwd }))
  assert.equal(problems.length, 1)
  assert.match(problems[0] ?? '', /^YAML syntax error at line 2, column 1: .*end with a \]/)
})

test('provider credentials in the environment are collected for the built-in presets', () => {
  const config = loadConfig({
    env: {
      OPENAI_API_KEY: 'sk-1',
      OLLAMA_BASE_URL: 'http://127.0.0.1:11434',
      SWITCHYARD_ADMIN_KEY: 'x'.repeat(40),
      HOME: '/root',
    },
    cwd: mkdtempSync(join(tmpdir(), 'switchyard-config-')),
  })
  assert.deepEqual(config.provider_env, { OPENAI_API_KEY: 'sk-1', OLLAMA_BASE_URL: 'http://127.0.0.1:11434' })
})

test('schema errors, duplicate slugs, unknown providers and bad prices are reported together, in one error', () => {
  const yaml = `${provider}  - slug: acme
    api: anthropic
    base_url: http://x
models:
  - slug: acme/fast-1
    kind: chat
    endpoints:
      - provider: ghost
        upstream_model_id: fast-1
        pricing: { prompt: "0.1", completion: "0.2" }
      - provider: acme
        upstream_model_id: fast-2
        pricing: { prompt: "0.0000000000000000001", completion: "0.2" }
`
  const problems = problemsOf(withYaml(yaml, { ACME_KEY: 'x' }))
  assert.deepEqual([...problems].sort(), [
    'models[0].endpoints[0].provider: unknown provider "ghost"; declare it under providers or set its API key variable',
    'models[0].endpoints[1].pricing.prompt: Price "0.0000000000000000001" has more than 18 decimal places',
    'models[0].kind: must be one of "text", "embedding"',
    'providers[1].slug: "acme" is already used by providers[0]',
  ])
})

test('an endpoint may name a built-in provider that its environment variable enables', () => {
  const yaml = `models:\n  - slug: openai/mine\n    endpoints:\n      - { provider: openai, upstream_model_id: m, pricing: { prompt: "1", completion: "1" } }\n`
  assert.equal(withYaml(yaml, { OPENAI_API_KEY: 'sk-1' })().models[0]?.slug, 'openai/mine')
  assert.deepEqual(problemsOf(withYaml(yaml)), [
    'models[0].endpoints[0].provider: unknown provider "openai"; declare it under providers or set its API key variable',
  ])
})

test('a semantic check is skipped only where the part it reads failed the schema', () => {
  // A provider without a valid slug might be the one an endpoint names: no unknown-provider guess.
  const noSlug = `providers:\n  - { api: openai-chat, base_url: http://x }\nmodels:\n  - slug: a/b\n    endpoints:\n      - { provider: ghost, upstream_model_id: m, pricing: { prompt: "1", completion: "1" } }\n  - slug: a/b\n    endpoints:\n      - { provider: ghost, upstream_model_id: m, pricing: { prompt: "x", completion: "1" } }\n`
  assert.deepEqual([...problemsOf(withYaml(noSlug))].sort(), [
    'models[1].endpoints[0].pricing.prompt: must match pattern "^\\d+(\\.\\d+)?$"',
    'models[1].slug: "a/b" is already used by models[0]',
    'providers[0].slug: is required',
  ])
})

test('an unquoted ${VAR} inside a flow map gives one error with its line, column and a hint to quote it', () => {
  const yaml = `providers:\n  - { slug: acme, api: openai-chat, base_url: http://127.0.0.1:9000/v1, api_key: \${ACME_KEY} }\nmodels:\n  - slug: acme/fast-1\n    endpoints:\n      - { provider: acme, upstream_model_id: fast-1, pricing: { prompt: "0.1", completion: "0.2" } }\n`
  const problems = problemsOf(withYaml(yaml, { ACME_KEY: 'x' }))
  assert.equal(problems.length, 1, problems.join('\n'))
  assert.match(problems[0] ?? '', /^YAML syntax error at line 2, column 83: /)
  assert.match(problems[0] ?? '', /quote the value: "\$\{ACME_KEY\}"/)
})

test('a YAML error on a line whose ${VAR} is already quoted gets no hint to quote it', () => {
  const problems = problemsOf(withYaml('providers:\n  - { slug: acme, api_key: "${ACME_KEY}" ]\n', { ACME_KEY: 'x' }))
  assert.equal(problems.length, 1, problems.join('\n'))
  assert.match(problems[0] ?? '', /^YAML syntax error at line 2, column \d+: /)
  assert.doesNotMatch(problems[0] ?? '', /quote the value/)
})

test('a credential pool: api_key or credentials, not both; names unique; weights 1..1000', () => {
  const pool = (extra: string, credentials: string) =>
    `providers:\n  - { slug: pooled, api: openai-chat, base_url: "http://x"${extra}, credentials: ${credentials} }\n`
  assert.equal(withYaml(pool('', '[{ api_key: a, weight: 3 }, { api_key: b }]'))().providers[0]!.credentials?.length, 2)
  assert.deepEqual(problemsOf(withYaml(pool(', api_key: k', '[{ api_key: a }]'))), [
    'providers[0]: set api_key or credentials, not both',
  ])
  assert.deepEqual(problemsOf(withYaml(pool('', '[{ api_key: a, name: one }, { api_key: b, name: one }]'))), [
    'providers[0].credentials: the name "one" is used twice',
  ])
  assert.match(
    problemsOf(withYaml(pool('', '[{ api_key: a, weight: 0 }]'))).join('\n'),
    /credentials\/0\/weight|credentials\[0\]\.weight/,
  )
  assert.match(problemsOf(withYaml(pool('', '[]'))).join('\n'), /credentials/)
})

test('more than eight schema problems are all reported (TypeBox stops at eight by default)', () => {
  const providers = Array.from(
    { length: 10 },
    (_, index) => `  - { slug: p${index}, api: openai-chat, base_url: "http://x", bogus${index}: 1 }`,
  )
  const problems = problemsOf(withYaml(`providers:\n${providers.join('\n')}\n`))
  assert.deepEqual(
    problems,
    Array.from({ length: 10 }, (_, index) => `providers[${index}].bogus${index}: unknown field`),
  )
})

test('a vertex provider without a project is refused when the config loads, not at its first request', () => {
  const vertex = (fields: string) =>
    `providers:\n  - { slug: gcp, api: vertex, base_url: "https://us-east5-aiplatform.googleapis.com"${fields}, api_key: t }\n`
  assert.deepEqual(problemsOf(withYaml(vertex(''))), [
    'providers[0]: a vertex provider needs options.project (or a base_url ending in /projects/{project}/locations/{location})',
  ])
  assert.equal(withYaml(vertex(', options: { project: p1 }'))().providers[0]!.slug, 'gcp')
  const scoped = `providers:\n  - { slug: gcp, api: vertex, base_url: "https://x/v1/projects/p/locations/us-east5", api_key: t }\n`
  assert.equal(withYaml(scoped)().providers[0]!.slug, 'gcp')
})
