import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../config/load-config.ts'
import type { Config } from '../config/config.ts'
import { credentialSource } from '../config/credential-source.ts'
import { buildCatalog } from '../inference/catalog/build-catalog.ts'
import { Catalog } from '../domain/catalog.ts'
import { startUpBanner } from './start-up-banner.ts'

const address = 'http://0.0.0.0:8080'

function configFrom(env: Record<string, string>, yaml?: string): Config {
  const cwd = mkdtempSync(join(tmpdir(), 'banner-'))
  if (yaml !== undefined) writeFileSync(join(cwd, 'switchyard.yaml'), yaml)
  return loadConfig({ env, cwd })
}

function catalogFrom(env: Record<string, string>): Catalog {
  return buildCatalog(configFrom(env))
}

const noSource = () => 'nowhere'

test('no provider: the banner says so and how to add one (a key variable or the YAML file)', () => {
  const banner = startUpBanner({ address, storeEngine: 'sqlite', catalog: catalogFrom({}), credentialSource: noSource })
  assert.match(banner, /^Switchyard listening on http:\/\/0\.0\.0\.0:8080 \(store: sqlite\)\n/)
  assert.match(banner, /Loaded 0 providers and 0 models\./)
  assert.match(banner, /No provider is configured/)
  assert.match(banner, /OPENAI_API_KEY/)
  assert.match(banner, /SWITCHYARD_CONFIG/)
})

test('a provider from the environment: the banner counts providers and models, with no hint', () => {
  const catalog = catalogFrom({ OPENAI_API_KEY: 'sk-test' })
  const models = catalog.models().length
  assert.ok(models > 1)
  const banner = startUpBanner({ address, storeEngine: 'postgres', catalog, credentialSource: noSource })
  assert.match(banner, new RegExp(`Loaded 1 provider \\(openai\\) and ${models} models\\.\\n$`))
  assert.doesNotMatch(banner, /No provider|SWITCHYARD_CONFIG/)
})

test('providers without any model: the banner says models must be declared', () => {
  const [provider] = catalogFrom({ OPENAI_API_KEY: 'sk-test' }).providers()
  assert.ok(provider !== undefined)
  const banner = startUpBanner({
    address,
    storeEngine: 'sqlite',
    catalog: new Catalog([], [provider]),
    credentialSource: noSource,
  })
  assert.match(banner, /Loaded 1 provider \(openai\) and 0 models\./)
  assert.match(banner, /No model is declared: add models/)
})

test('a provider without a credential gets a warning naming where to set it; a local preset or a header does not', () => {
  const config = configFrom(
    { OLLAMA_BASE_URL: 'http://127.0.0.1:11434', ANTHROPIC_API_KEY: 'sk-ant' },
    'providers:\n' +
      '  - { slug: bare, api: openai-chat, base_url: "http://10.0.0.1/v1" }\n' +
      '  - { slug: headed, api: openai-chat, base_url: "http://10.0.0.2/v1", headers: { Authorization: "Bearer x" } }\n',
  )
  const banner = startUpBanner({
    address,
    storeEngine: 'sqlite',
    catalog: buildCatalog(config),
    credentialSource: (provider) => credentialSource(config, provider),
  })
  const warnings = banner.split('\n').filter((line) => line.startsWith('Warning:'))
  assert.equal(warnings.length, 1, banner)
  assert.match(
    warnings[0] ?? '',
    /^Warning: provider bare has no credential .* set providers\[0\]\.api_key in .*switchyard\.yaml/,
  )
})
