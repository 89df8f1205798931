// Child process: Switchyard itself, composed as `npm start` composes it (createGateway) on a fresh
// SQLite store in a temp directory, with a YAML config pointing at the bench upstream. It mints a real
// inference key with a limit and enables one webhook destination aimed at the upstream's /hook, so
// every stage of the pipeline runs: auth, validation, routing, reservation and settlement, generation
// records, metrics and observability broadcast.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/config/load-config.ts'
import { createGateway } from '../src/gateway.ts'
import { systemClock } from '../src/domain/clock.ts'
import { serveChildProtocol } from './child-process.ts'

const adminKey = 'sk-sy-v1-bench-admin-00000000000000000000000000000000000000000000000'
const { values } = parseArgs({ options: { upstream: { type: 'string' }, 'log-level': { type: 'string', default: 'info' } } })
const upstream = values.upstream ?? 'http://127.0.0.1:1'

const pricing = '{ prompt: "0.000001", completion: "0.000002" }'
const yaml = `
egress:
  allow_private_networks: true
providers:
  - { slug: bench-chat, name: "Bench chat", api: openai-chat, base_url: "${upstream}/v1", api_key: bench }
  - { slug: bench-responses, name: "Bench responses", api: openai-responses, base_url: "${upstream}/v1", api_key: bench }
  - { slug: bench-anthropic, name: "Bench anthropic", api: anthropic, base_url: "${upstream}", api_key: bench }
models:
  - slug: bench/chat
    endpoints: [{ provider: bench-chat, upstream_model_id: up-model, max_output_tokens: 1000, pricing: ${pricing} }]
  - slug: bench/responses
    endpoints: [{ provider: bench-responses, upstream_model_id: up-model, max_output_tokens: 1000, pricing: ${pricing} }]
  - slug: bench/anthropic
    endpoints: [{ provider: bench-anthropic, upstream_model_id: up-model, max_output_tokens: 1000, pricing: ${pricing} }]
`

const directory = mkdtempSync(join(tmpdir(), 'switchyard-bench-'))
writeFileSync(join(directory, 'switchyard.yaml'), yaml)
const config = loadConfig({
  env: {
    DATABASE_URL: `sqlite:${join(directory, 'bench.db')}`,
    SWITCHYARD_ADMIN_KEY: adminKey,
    SWITCHYARD_CONFIG: join(directory, 'switchyard.yaml'),
    LOG_LEVEL: values['log-level'] ?? 'info',
  },
  cwd: directory,
})
const gateway = await createGateway({ config, clock: systemClock })
const admin = { authorization: `Bearer ${adminKey}` }
const created = await gateway.app.fastify.inject({ method: 'POST', url: '/api/v1/keys', headers: admin, payload: { name: 'bench', limit: 1_000_000 } })
if (created.statusCode !== 201) throw new Error(`bench: could not create the inference key: ${created.body}`)
const destination = await gateway.app.fastify.inject({
  method: 'POST',
  url: '/api/v1/observability/destinations',
  headers: admin,
  payload: { name: 'Bench hook', type: 'webhook', config: { url: `${upstream}/hook` } },
})
if (destination.statusCode !== 201) throw new Error(`bench: could not create the webhook destination: ${destination.body}`)
await gateway.app.fastify.listen({ host: '127.0.0.1', port: 0 })
const address = gateway.app.fastify.server.address()
const port = typeof address === 'object' && address !== null ? address.port : 0
serveChildProtocol(
  port,
  async () => {
    await gateway.close()
    rmSync(directory, { recursive: true, force: true })
  },
  { key: (created.json() as { key: string }).key },
)
