import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { loadConfig } from './load-config.ts'
import { redactConfig } from './redact-config.ts'

test('printing the config never shows a credential', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'switchyard-config-'))
  writeFileSync(
    join(cwd, 'switchyard.yaml'),
    'providers:\n  - slug: acme\n    api: openai-chat\n    base_url: http://127.0.0.1:9/v1\n    api_key: provider-secret-1\n    headers: { X-Org: org-secret-2 }\n',
  )
  const config = loadConfig({
    env: {
      SWITCHYARD_ADMIN_KEY: 'admin-secret-3-admin-secret-3-admin-secret-3',
      SWITCHYARD_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
      DATABASE_URL: 'postgres://user:db-secret-4@127.0.0.1:5432/test',
      OPENAI_API_KEY: 'openai-secret-5',
    },
    cwd,
  })
  const printed = stringify(redactConfig(config))
  for (const secret of [
    'provider-secret-1',
    'org-secret-2',
    'admin-secret-3',
    Buffer.alloc(32, 7).toString('base64'),
    'db-secret-4',
    'openai-secret-5',
  ]) {
    assert.ok(!printed.includes(secret), `${secret} leaked into:\n${printed}`)
  }
  assert.match(printed, /base_url: http:\/\/127\.0\.0\.1:9\/v1/)
  assert.match(printed, /postgres:\/\/user:\[redacted\]@127\.0\.0\.1:5432\/test/)
})
