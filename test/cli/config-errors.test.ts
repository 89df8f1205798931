// A config that `serve` refuses is refused by every command, with the same list of every problem.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..', '..')

function writeConfig(yaml: string): string {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-config-cli-'))
  writeFileSync(join(directory, 'switchyard.yaml'), yaml)
  return directory
}

function run(args: string[], directory: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src', 'main.ts'), ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'silent',
      SWITCHYARD_CONFIG: join(directory, 'switchyard.yaml'),
      DATABASE_URL: `sqlite:${join(directory, 'switchyard.db')}`,
      HOST: '127.0.0.1',
      PORT: '0',
    },
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

const acme = `providers:
  - { slug: acme, api: openai-chat, base_url: "http://127.0.0.1:9000/v1" }
`
const ghostModel = `models:
  - slug: acme/fast-1
    endpoints:
      - { provider: ghost, upstream_model_id: fast-1, pricing: { prompt: "0.1", completion: "0.2" } }
`

test('config print reports a schema error, a duplicate slug and an unknown provider in one error, exit 2', () => {
  const yaml = `${acme}  - { slug: acme, api: anthropic, base_url: "http://x", colour: blue }\n${ghostModel}`
  const printed = run(['config', 'print'], writeConfig(yaml))
  assert.equal(printed.status, 2, printed.stdout)
  assert.equal(printed.stdout, '')
  assert.match(printed.stderr, /^invalid configuration \(.*switchyard\.yaml\):\n/)
  assert.match(printed.stderr, /- providers\[1\]\.colour: unknown field\n/)
  assert.match(printed.stderr, /- providers\[1\]\.slug: "acme" is already used by providers\[0\]\n/)
  assert.match(printed.stderr, /- models\[0\]\.endpoints\[0\]\.provider: unknown provider "ghost"/)
})

test('config print and serve refuse a config with only an unknown provider the same way', () => {
  const directory = writeConfig(`${acme}${ghostModel}`)
  const printed = run(['config', 'print'], directory)
  const served = run(['serve'], directory)
  assert.equal(printed.status, 2, printed.stdout)
  assert.equal(served.status, 2, served.stdout)
  assert.match(printed.stderr, /models\[0\]\.endpoints\[0\]\.provider: unknown provider "ghost"/)
  assert.equal(served.stderr, printed.stderr)
})
