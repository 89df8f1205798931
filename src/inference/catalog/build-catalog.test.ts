import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, ConfigError } from '../../config/load-config.ts'
import { buildCatalog } from './build-catalog.ts'

function configWith(yaml: string, env: Record<string, string> = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'switchyard-catalog-'))
  writeFileSync(join(cwd, 'switchyard.yaml'), yaml)
  return loadConfig({ env, cwd })
}

test('built-in providers appear only when their variable is set, with their models', () => {
  const none = buildCatalog(configWith(''))
  assert.equal(none.models().length, 0)
  const catalog = buildCatalog(
    configWith('', { ANTHROPIC_API_KEY: 'sk-ant', OLLAMA_BASE_URL: 'http://127.0.0.1:11434/' }),
  )
  assert.deepEqual(
    catalog.providers().map((provider) => provider.slug),
    ['anthropic', 'ollama'],
  )
  assert.equal(catalog.provider('anthropic')?.apiKey, 'sk-ant')
  assert.equal(catalog.provider('ollama')?.baseUrl, 'http://127.0.0.1:11434/v1')
  const sonnet = catalog.model('anthropic/claude-sonnet-4')
  assert.equal(sonnet?.endpoints[0]?.pricingText.prompt, '0.000003')
  assert.equal(catalog.model('openai/gpt-4o'), undefined)
})

test('a hosted preset takes its base URL from <NAME>_BASE_URL when set (OPENAI_BASE_URL)', () => {
  const plain = buildCatalog(configWith('', { OPENAI_API_KEY: 'sk-1' }))
  assert.equal(plain.provider('openai')?.baseUrl, 'https://api.openai.com/v1')
  const proxied = buildCatalog(
    configWith('', { OPENAI_API_KEY: 'sk-1', OPENAI_BASE_URL: 'http://127.0.0.1:9000/v1/', ANTHROPIC_BASE_URL: 'x' }),
  )
  assert.equal(proxied.provider('openai')?.baseUrl, 'http://127.0.0.1:9000/v1')
  assert.equal(proxied.provider('openai')?.apiKey, 'sk-1')
  assert.equal(proxied.provider('anthropic'), undefined)
})

test('config adds providers and models and overrides a preset model of the same slug', () => {
  const catalog = buildCatalog(
    configWith(
      'providers:\n  - slug: acme\n    api: openai-chat\n    base_url: http://127.0.0.1:9000/v1/\nmodels:\n' +
        '  - slug: anthropic/claude-sonnet-4\n    endpoints:\n      - { provider: acme, upstream_model_id: sonnet, pricing: { prompt: "0.000001", completion: "0.000002" } }\n' +
        '  - slug: acme/embed\n    kind: embedding\n    endpoints:\n      - { provider: acme, upstream_model_id: e1, pricing: { prompt: "0.0000001", completion: "0" } }\n',
      { ANTHROPIC_API_KEY: 'sk-ant' },
    ),
  )
  assert.equal(catalog.provider('acme')?.baseUrl, 'http://127.0.0.1:9000/v1')
  const sonnet = catalog.model('anthropic/claude-sonnet-4')
  assert.deepEqual(
    sonnet?.endpoints.map((endpoint) => endpoint.id),
    ['acme/sonnet'],
  )
  assert.equal(sonnet?.endpoints[0]?.pricing.prompt, 1_000_000_000_000n)
  assert.equal(catalog.model('acme/embed')?.kind, 'embedding')
})

test('an endpoint naming an unknown provider is a configuration error with its path', () => {
  const yaml =
    'models:\n  - slug: a/b\n    endpoints:\n      - { provider: ghost, upstream_model_id: x, pricing: { prompt: "1", completion: "1" } }\n'
  assert.throws(
    () => buildCatalog(configWith(yaml)),
    (error: unknown) =>
      error instanceof ConfigError &&
      /models\[0\]\.endpoints\[0\]\.provider: unknown provider "ghost"/.test(error.message),
  )
})

test('a model without a price cannot be configured', () => {
  assert.throws(
    () =>
      configWith(
        'providers:\n  - { slug: acme, api: openai-chat, base_url: "http://x" }\nmodels:\n  - slug: a/b\n    endpoints:\n      - { provider: acme, upstream_model_id: x }\n',
      ),
    (error: unknown) =>
      error instanceof ConfigError && /models\[0\]\.endpoints\[0\]\.pricing: is required/.test(error.message),
  )
})
