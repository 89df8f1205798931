import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../config/load-config.ts'
import { buildCatalog } from '../inference/catalog/build-catalog.ts'
import { Catalog } from '../domain/catalog.ts'
import { startUpBanner } from './start-up-banner.ts'

const address = 'http://0.0.0.0:8080'

function catalogFrom(env: Record<string, string>): Catalog {
  const cwd = mkdtempSync(join(tmpdir(), 'banner-'))
  return buildCatalog(loadConfig({ env, cwd }))
}

test('no provider: the banner says so and how to add one (a key variable or the YAML file)', () => {
  const banner = startUpBanner({ address, storeEngine: 'sqlite', catalog: catalogFrom({}) })
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
  const banner = startUpBanner({ address, storeEngine: 'postgres', catalog })
  assert.match(banner, new RegExp(`Loaded 1 provider \\(openai\\) and ${models} models\\.\\n$`))
  assert.doesNotMatch(banner, /No provider|SWITCHYARD_CONFIG/)
})

test('providers without any model: the banner says models must be declared', () => {
  const [provider] = catalogFrom({ OPENAI_API_KEY: 'sk-test' }).providers()
  assert.ok(provider !== undefined)
  const banner = startUpBanner({ address, storeEngine: 'sqlite', catalog: new Catalog([], [provider]) })
  assert.match(banner, /Loaded 1 provider \(openai\) and 0 models\./)
  assert.match(banner, /No model is declared: add models/)
})
