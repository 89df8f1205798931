// What the server-tool end-to-end tests share: a fake openai-chat upstream and a fake Anthropic upstream
// scripted to call the exposed `openrouter_*` functions, a loopback page for web_fetch, a gateway with a
// fixed clock, a key, and helpers that call the gateway over a real socket.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import OpenAI from 'openai'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

const instant = '2026-03-01T12:00:00.000Z'

export const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output })
/** Nano-dollars of a step at the configured prices (1000 per prompt token, 2000 per completion token). */
export const nano = (input: number, output: number) => input * 1000 + output * 2000
export const tools = [{ type: 'openrouter:datetime' }, { type: 'openrouter:web_fetch' }]

export interface ServerToolsWorld {
  readonly upstream: FakeUpstream
  readonly claude: FakeUpstream
  readonly gateway: TestGateway
  /** The gateway's origin on its real socket. */
  readonly base: string
  readonly key: string
  readonly keyHash: string
  openai(): OpenAI
  /** POSTs a Responses request with the key. */
  post(body: Record<string, unknown>): Promise<Response>
  /** Scripts datetime, then web_fetch on the loopback page, then the answer. */
  scriptAgent(): void
  /** Streams a Responses request through the openai SDK; the item types of its `response.completed`. */
  streamedOutputTypes(body: Record<string, unknown>): Promise<string[]>
  close(): Promise<void>
}

function gatewayYaml(upstream: FakeUpstream, claude: FakeUpstream): string {
  return `egress: { allow_private_networks: true }
providers:
  - { slug: fake, name: Fake, api: openai-chat, base_url: "${upstream.url}", api_key: upstream-secret }
  - { slug: claude, name: Claude, api: anthropic, base_url: "${claude.url}", api_key: upstream-secret }
models:
  - slug: test/agent
    endpoints:
      - { provider: fake, upstream_model_id: up-agent, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }
  - slug: test/claude
    endpoints:
      - { provider: claude, upstream_model_id: up-claude, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }
  - slug: test/panelist
    endpoints:
      - { provider: fake, upstream_model_id: up-panelist, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }
`
}

export interface ServerToolsWorldOptions {
  /** The gateway's store: PostgreSQL at this URL (default: SQLite). */
  readonly postgresUrl?: string | undefined
}

export async function startServerToolsWorld(options: ServerToolsWorldOptions = {}): Promise<ServerToolsWorld> {
  const upstream = await startFakeUpstream({ api: 'openai-chat', apiKey: 'upstream-secret' })
  const claude = await startFakeUpstream({ api: 'anthropic', apiKey: 'upstream-secret' })
  const page = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(
      '<html><head><title>Tides</title><script>var x = 1</script></head><body><h1>Harbour</h1><p>High tide at <b>06:12</b>.</p></body></html>',
    )
  })
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve))
  const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/tides`
  const gateway = await startTestGateway({
    ...(options.postgresUrl === undefined ? {} : { postgresUrl: options.postgresUrl }),
    yaml: gatewayYaml(upstream, claude),
    clock: { now: () => new Date(instant) },
  })
  const base = await gateway.listen()
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'agent', limit: 5 },
  })
  assert.equal(created.statusCode, 201, created.body)
  const key = (created.json() as { key: string }).key
  const keyHash = (created.json() as { data: { hash: string } }).data.hash
  const openai = () => new OpenAI({ apiKey: key, baseURL: `${base}/api/v1`, maxRetries: 0 })
  return {
    upstream,
    claude,
    gateway,
    base,
    key,
    keyHash,
    openai,
    post: (body) =>
      fetch(`${base}/api/v1/responses`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    scriptAgent: () => scriptAgent(upstream, pageUrl),
    async streamedOutputTypes(body) {
      const stream = (await openai().responses.create({ ...body, stream: true } as never)) as unknown as AsyncIterable<{
        type: string
        response?: { output: { type: string }[] }
      }>
      let completed: string[] = []
      for await (const event of stream)
        if (event.type === 'response.completed') completed = event.response!.output.map((item) => item.type)
      return completed
    },
    async close() {
      await gateway.close()
      await upstream.close()
      await claude.close()
      await new Promise((resolve) => page.close(resolve))
    },
  }
}

function scriptAgent(upstream: FakeUpstream, pageUrl: string): void {
  upstream.script(
    {
      type: 'completion',
      toolCalls: [{ id: 'call_dt', name: 'openrouter_datetime', arguments: '{"timezone":"Europe/Paris"}' }],
      usage: usage(10, 5),
    },
    {
      type: 'completion',
      toolCalls: [{ id: 'call_wf', name: 'openrouter_web_fetch', arguments: JSON.stringify({ url: pageUrl }) }],
      usage: usage(30, 6),
    },
    { type: 'completion', text: 'High tide is at 06:12.', usage: usage(50, 7) },
  )
}
