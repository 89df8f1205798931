import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, ConfigError } from '../../config/load-config.ts'
import { buildCatalog } from './build-catalog.ts'

function configWith(yaml: string, env: Record<string, string>) {
  const cwd = mkdtempSync(join(tmpdir(), 'switchyard-cloud-'))
  writeFileSync(join(cwd, 'switchyard.yaml'), yaml)
  return loadConfig({ env, cwd })
}

const deployment =
  'models:\n  - slug: acme/gpt\n    endpoints:\n      - { provider: azure, upstream_model_id: gpt-4o-prod, pricing: { prompt: "0.000001", completion: "0.000002" } }\n'

test('Azure OpenAI is enabled by AZURE_OPENAI_API_KEY with AZURE_OPENAI_ENDPOINT; catalog entries name it', () => {
  const catalog = buildCatalog(
    configWith(deployment, {
      AZURE_OPENAI_API_KEY: 'az-key',
      AZURE_OPENAI_ENDPOINT: 'https://res.openai.azure.com/',
      OPENAI_API_VERSION: '2024-10-21',
    }),
  )
  const azure = catalog.provider('azure')
  assert.equal(azure?.api, 'azure-openai')
  assert.equal(azure?.baseUrl, 'https://res.openai.azure.com')
  assert.equal(azure?.apiKey, 'az-key')
  assert.deepEqual(azure?.options, { api_version: '2024-10-21' })
  assert.equal(catalog.model('acme/gpt')?.endpoints[0]?.provider.slug, 'azure')
  const v1 = buildCatalog(
    configWith('', { AZURE_OPENAI_API_KEY: 'k', AZURE_OPENAI_ENDPOINT: 'https://res.openai.azure.com/openai' }),
  )
  assert.equal(v1.provider('azure')?.baseUrl, 'https://res.openai.azure.com')
  assert.deepEqual(v1.provider('azure')?.options, {})
})

test('without its endpoint the Azure preset stays off, and an endpoint naming it is a config error', () => {
  assert.throws(
    () => configWith(deployment, { AZURE_OPENAI_API_KEY: 'az-key' }),
    (error: unknown) => error instanceof ConfigError && /unknown provider "azure"/.test(error.message),
  )
})
