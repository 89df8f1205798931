// Server tools run against real loopback servers: a SearXNG-shaped engine, pages behind the egress
// policy, a sandbox runner; plus the catalog searches.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serverToolsSetting, type ServerToolsConfigFile } from '../../src/config/server-tools-config.ts'
import { Catalog, type ModelEntry } from '../../src/domain/catalog.ts'
import { runServerTool } from '../../src/inference/server-tools/run-server-tool.ts'
import { serverToolRegistry } from '../../src/inference/server-tools/server-tool-registry.ts'
import type { ServerToolContext } from '../../src/inference/server-tools/server-tool.ts'
import type { ApiKeyRecord } from '../../src/domain/identity.ts'

let server: Server
let origin: string
const received: { path: string; body: string }[] = []

before(async () => {
  server = createServer(async (request, response) => {
    const body = await readBody(request)
    received.push({ path: request.url ?? '', body })
    if (request.url?.startsWith('/search')) {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          results: [
            { title: 'Tide tables', url: 'https://tides.example/brest', content: 'High tide 06:12' },
            { title: 'Other', url: 'https://other.example', content: 'x' },
          ],
        }),
      )
    } else if (request.url === '/moved') {
      response.writeHead(302, { location: '/big' }).end()
    } else if (request.url === '/big') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('a'.repeat(5000))
    } else if (request.url === '/run') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ stdout: 'hello\n', stderr: '', exit_code: 0 }))
    } else {
      response.writeHead(404).end('missing')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
after(() => new Promise((resolve) => server.close(resolve)))

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    request.on('data', (chunk: Buffer) => (text += chunk.toString()))
    request.on('end', () => resolve(text))
  })
}

const models: ModelEntry[] = [
  {
    slug: 'acme/painter',
    name: 'Acme Painter',
    kind: 'text',
    description: 'Draws pictures',
    contextLength: 8000,
    inputModalities: ['text'],
    outputModalities: ['image', 'text'],
    endpoints: [],
  },
  {
    slug: 'acme/coder',
    name: 'Acme Coder',
    kind: 'text',
    description: 'Writes code',
    contextLength: 128000,
    inputModalities: ['text'],
    outputModalities: ['text'],
    endpoints: [],
  },
]

function context(
  file: ServerToolsConfigFile,
  allowPrivate: boolean,
  requestSettings: Record<string, unknown> = {},
): ServerToolContext {
  return {
    clock: { now: () => new Date('2026-03-01T12:00:00Z') },
    key: { hash: 'k' } as ApiKeyRecord,
    model: 'acme/coder',
    catalog: new Catalog(models, []),
    settings: serverToolsSetting(file),
    egress: { allowPrivateNetworks: allowPrivate },
    requestSettings,
    signal: new AbortController().signal,
    invoke: () => Promise.reject(new Error('no nested calls in this test')),
    toolCatalog: Object.entries(serverToolRegistry).map(([name, tool]) => ({ name, description: tool.description })),
  }
}

test('web_search asks the configured SearXNG engine and reports the sources', async () => {
  const outcome = await runServerTool(
    'web_search',
    '{"query":"brest tides"}',
    'st_1',
    context({ web_search: { engine: 'searxng', base_url: origin } }, false, { max_results: 1 }),
  )
  assert.equal(outcome.item.status, 'completed')
  assert.deepEqual(outcome.item.action, {
    type: 'search',
    query: 'brest tides',
    sources: [{ type: 'url', url: 'https://tides.example/brest' }],
  })
  assert.match(outcome.output, /Tide tables\nhttps:\/\/tides.example\/brest\nHigh tide 06:12/)
  assert.equal(outcome.webSearchRequests, 1)
  assert.match(received.at(-1)!.path, /^\/search\?q=brest\+tides&format=json$/)
})

test('web_fetch: private addresses are refused unless allowed; redirects are followed; size is capped', async () => {
  const refused = await runServerTool('web_fetch', JSON.stringify({ url: `${origin}/big` }), 'st_2', context({}, false))
  assert.equal(refused.item.status, 'incomplete')
  assert.match(String(refused.item.error), /private, loopback or link-local/)
  const scheme = await runServerTool('web_fetch', '{"url":"file:///etc/passwd"}', 'st_3', context({}, true))
  assert.match(String(scheme.item.error), /scheme file is not allowed/)
  const capped = await runServerTool(
    'web_fetch',
    JSON.stringify({ url: `${origin}/moved` }),
    'st_4',
    context({ web_fetch: { max_bytes: 1024 } }, true),
  )
  assert.equal(capped.item.status, 'completed')
  assert.equal(capped.item.url, `${origin}/big`)
  assert.equal(String(capped.item.content).length, 1024)
  assert.match(capped.output, /truncated/)
  const missing = await runServerTool('web_fetch', JSON.stringify({ url: `${origin}/nope` }), 'st_5', context({}, true))
  assert.equal(missing.item.httpStatus, 404)
  assert.match(missing.output, /HTTP 404/)
})

test('bad arguments and unknown time zones are results the model can fix', async () => {
  const badJson = await runServerTool('datetime', '{not json', 'st_6', context({}, false))
  assert.match(badJson.output, /not valid JSON/)
  const zone = await runServerTool('datetime', '{"timezone":"Mars/Base"}', 'st_7', context({}, false))
  assert.equal(zone.item.status, 'incomplete')
  assert.equal(zone.item.datetime, '')
  const configured = await runServerTool('datetime', '{}', 'st_8', context({}, false, { timezone: 'Asia/Kolkata' }))
  assert.equal(configured.item.datetime, '2026-03-01T17:30:00+05:30')
})

test('catalog searches find models and tools by words', async () => {
  const found = await runServerTool(
    'experimental__search_models',
    '{"query":"image painter"}',
    'st_9',
    context({}, false),
  )
  assert.deepEqual(
    JSON.parse(found.output).map((model: { id: string }) => model.id),
    ['acme/painter'],
  )
  const tools = await runServerTool(
    'tool_search',
    '{"query":"fetch the content of a url"}',
    'st_10',
    context({}, false),
  )
  assert.equal(JSON.parse(tools.output)[0].type, 'openrouter:web_fetch')
})

test('bash goes to the configured sandbox runner and is unavailable without one', async () => {
  assert.match(serverToolRegistry.bash.unavailable!(serverToolsSetting({}))!, /server_tools\.sandbox\.url/)
  assert.equal(serverToolRegistry.bash.unavailable!(serverToolsSetting({ sandbox: { url: `${origin}/run` } })), null)
  const ran = await runServerTool(
    'bash',
    '{"command":"echo hello"}',
    'st_11',
    context({ sandbox: { url: `${origin}/run`, api_key: 'runner-key' } }, false),
  )
  assert.equal(ran.item.stdout, 'hello\n')
  assert.equal(ran.item.exitCode, 0)
  assert.deepEqual(JSON.parse(received.at(-1)!.body), {
    tool: 'bash',
    arguments: { command: 'echo hello' },
    key_hash: 'k',
  })
})

test('image_generation without an image model (or nested answer) reports a clear error', async () => {
  const withoutModel = await runServerTool('image_generation', '{"prompt":"a boat"}', 'st_12', {
    ...context({}, false),
    catalog: new Catalog([models[1]!], []),
  })
  assert.match(String(withoutModel.item.error), /no image-capable model/)
})
