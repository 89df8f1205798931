import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, ConfigError } from './load-config.ts'

function load(yaml: string) {
  const cwd = mkdtempSync(join(tmpdir(), 'switchyard-config-'))
  writeFileSync(join(cwd, 'switchyard.yaml'), yaml)
  return loadConfig({ env: { SEARCH_KEY: 'sk-search' }, cwd })
}

test('server_tools defaults, a full section, and refusals of unknown engines and keys', () => {
  const defaults = load('{}\n').server_tools
  assert.equal(defaults.web_search, null)
  assert.equal(defaults.sandbox, null)
  assert.deepEqual(defaults.web_fetch, { max_bytes: 1024 * 1024, timeout_ms: 10_000 })
  const full = load(`server_tools:
  web_search:
    engine: brave
    api_key: \${SEARCH_KEY}
  subagent: { model: acme/fast-1 }
  fusion: { models: [a/b, c/d], judge_model: e/f }
  sandbox: { url: http://127.0.0.1:7070/run }
`).server_tools
  assert.deepEqual(full.web_search, { engine: 'brave', base_url: null, api_key: 'sk-search', max_results: 5 })
  assert.equal(full.subagent.model, 'acme/fast-1')
  assert.deepEqual(full.fusion, { models: ['a/b', 'c/d'], judge_model: 'e/f' })
  assert.deepEqual(full.sandbox, { url: 'http://127.0.0.1:7070/run', api_key: null, timeout_ms: 60_000 })
  assert.throws(
    () => load('server_tools: { web_search: { engine: google } }\n'),
    (error: unknown) => error instanceof ConfigError && error.problems.some((problem) => problem.includes('engine')),
  )
  assert.throws(() => load('server_tools: { teleport: {} }\n'), ConfigError)
})
