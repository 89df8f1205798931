// Child process: Switchyard itself, composed as `npm start` composes it (createGateway) on a fresh
// SQLite store in a temp directory, with a YAML config pointing at the bench upstream. It mints a real
// inference key with a limit and enables one observability destination (`--destination`: an OTLP
// collector at the `--receiver`'s /v1/traces, a webhook at its /hook, or none), so every stage of the
// pipeline runs: auth, validation, routing, reservation and settlement, generation records, metrics and
// observability broadcast and delivery. `--durability write-behind` sets `durability.write_behind: true`
// (answers leave before their records are committed) to measure what durable settlement costs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/config/load-config.ts'
import { createGateway } from '../src/gateway.ts'
import { systemClock } from '../src/domain/clock.ts'
import { serveChildProtocol } from './child-process.ts'

const adminKey = 'sk-sy-v1-bench-admin-00000000000000000000000000000000000000000000000'
const { values } = parseArgs({
  options: {
    upstream: { type: 'string' },
    receiver: { type: 'string' },
    'log-level': { type: 'string', default: 'info' },
    destination: { type: 'string', default: 'otlp' },
    durability: { type: 'string', default: 'durable' },
  },
})
const upstream = values.upstream ?? 'http://127.0.0.1:1'
const receiver = values.receiver ?? 'http://127.0.0.1:1'

type BenchDestination = 'otlp' | 'webhook' | 'none'
const destinations: Readonly<Record<BenchDestination, Record<string, unknown> | null>> = {
  otlp: { name: 'Bench collector', type: 'otel-collector', config: { endpoint: `${receiver}/v1/traces` } },
  webhook: { name: 'Bench hook', type: 'webhook', config: { url: `${receiver}/hook` } },
  none: null,
}
const destinationBody = destinations[(values.destination ?? 'otlp') as BenchDestination]
if (destinationBody === undefined)
  throw new Error(`bench: --destination must be otlp, webhook or none, not ${values.destination}`)

if (values.durability !== 'durable' && values.durability !== 'write-behind')
  throw new Error(`bench: --durability must be durable or write-behind, not ${values.durability}`)
const durability = values.durability === 'write-behind' ? 'durability:\n  write_behind: true\n' : ''

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
  - slug: bench/responses-via-chat
    endpoints: [{ provider: bench-chat, upstream_model_id: up-model, max_output_tokens: 1000, pricing: ${pricing} }]
  - slug: bench/embeddings
    kind: embedding
    endpoints: [{ provider: bench-chat, upstream_model_id: up-model, pricing: { prompt: "0.00000002", completion: "0" } }]
${durability}`

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
const created = await gateway.app.fastify.inject({
  method: 'POST',
  url: '/api/v1/keys',
  headers: admin,
  payload: { name: 'bench', limit: 1_000_000 },
})
if (created.statusCode !== 201) throw new Error(`bench: could not create the inference key: ${created.body}`)
if (destinationBody !== null) {
  const destination = await gateway.app.fastify.inject({
    method: 'POST',
    url: '/api/v1/observability/destinations',
    headers: admin,
    payload: destinationBody,
  })
  if (destination.statusCode !== 201)
    throw new Error(`bench: could not create the ${values.destination} destination: ${destination.body}`)
}
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
