import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, ConfigError } from '../../config/load-config.ts'
import { buildCatalog } from './build-catalog.ts'
import { redactConfig } from '../../config/redact-config.ts'

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

test('Bedrock is enabled by AWS_REGION with access keys, a Bedrock API key or a profile; region alone is not enough', () => {
  const keys = buildCatalog(
    configWith('', {
      AWS_REGION: 'eu-west-3',
      AWS_ACCESS_KEY_ID: 'AKID',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'token',
    }),
  ).provider('bedrock')
  assert.equal(keys?.api, 'bedrock')
  assert.equal(keys?.baseUrl, 'https://bedrock-runtime.eu-west-3.amazonaws.com')
  assert.deepEqual(keys?.options, {
    region: 'eu-west-3',
    access_key_id: 'AKID',
    secret_access_key: 'secret',
    session_token: 'token',
  })
  const bearer = buildCatalog(configWith('', { AWS_DEFAULT_REGION: 'us-east-1', AWS_BEARER_TOKEN_BEDROCK: 'bk' }))
  assert.equal(bearer.provider('bedrock')?.apiKey, 'bk')
  const profile = buildCatalog(configWith('', { AWS_REGION: 'us-west-2', AWS_PROFILE: 'prod' })).provider('bedrock')
  assert.deepEqual(profile?.options, { region: 'us-west-2', profile: 'prod' })
  assert.equal(buildCatalog(configWith('', { AWS_REGION: 'us-east-1' })).provider('bedrock'), undefined)
})

test('Vertex AI is enabled by VERTEX_PROJECT with a key file, an inline key or an access token; the inline key is redacted', () => {
  const claude =
    'models:\n  - slug: acme/claude\n    endpoints:\n      - { provider: vertex, upstream_model_id: "claude-sonnet-4@20250514", pricing: { prompt: "0.000003", completion: "0.000015" } }\n'
  const file = buildCatalog(
    configWith(claude, {
      VERTEX_PROJECT: 'my-proj',
      VERTEX_LOCATION: 'us-east5',
      GOOGLE_APPLICATION_CREDENTIALS: '/keys/sa.json',
    }),
  )
  const vertex = file.provider('vertex')
  assert.equal(vertex?.api, 'vertex')
  assert.equal(vertex?.baseUrl, 'https://us-east5-aiplatform.googleapis.com')
  assert.deepEqual(vertex?.options, { project: 'my-proj', location: 'us-east5', credentials_file: '/keys/sa.json' })
  assert.equal(file.model('acme/claude')?.endpoints[0]?.provider.slug, 'vertex')
  const inlineConfig = configWith('', {
    VERTEX_PROJECT: 'p',
    GOOGLE_APPLICATION_CREDENTIALS_JSON: '{"type":"service_account","private_key":"pk-secret-7"}',
  })
  const inline = buildCatalog(inlineConfig).provider('vertex')
  assert.equal(inline?.baseUrl, 'https://aiplatform.googleapis.com')
  assert.equal(inline?.options?.location, 'global')
  assert.match(inline?.options?.credentials_json ?? '', /pk-secret-7/)
  assert.doesNotMatch(JSON.stringify(redactConfig(inlineConfig)), /pk-secret-7/)
  const token = buildCatalog(configWith('', { VERTEX_PROJECT: 'p', VERTEX_ACCESS_TOKEN: 'ya29.x' })).provider('vertex')
  assert.equal(token?.apiKey, 'ya29.x')
  assert.equal(buildCatalog(configWith('', { VERTEX_PROJECT: 'p' })).provider('vertex'), undefined)
})
