// What the benchmark sends: each scenario is one client request, addressed three ways. `direct` goes
// straight to the fake upstream (the zero-overhead baseline), `proxy` through the bare pass-through
// proxy, `gateway` through Switchyard with a real inference key. `--instructions --portkey` adds a
// fourth, the Portkey gateway, for the scenarios it serves in the same format (OpenAI provider, the
// upstream named per request).
import type { LoadShape, RequestSpec } from './load.ts'

export type TargetName = 'direct' | 'proxy' | 'gateway'
export const targetNames: readonly TargetName[] = ['direct', 'proxy', 'gateway']

/** What a target's child announced: the gateway its inference `key`, Portkey the upstream's `customHost`. */
export type TargetInfo = Readonly<Record<string, string>>

export interface Scenario {
  readonly name: string
  readonly stream: boolean
  /** Whether Portkey can serve it as a pass-through of the same API (no translation, no Switchyard feature). */
  readonly portkey: boolean
  request(target: TargetName | 'portkey', info: TargetInfo): RequestSpec
}

function portkeyRequest(path: string, body: Record<string, unknown>, info: TargetInfo, stream: boolean): RequestSpec {
  return {
    path: `/v1${path}`,
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer bench',
      'x-portkey-provider': 'openai',
      'x-portkey-custom-host': info.customHost ?? '',
    },
    body: JSON.stringify({ model: 'up-model', ...body, ...(stream ? { stream: true } : {}) }),
    stream,
  }
}

function scenario(
  name: string,
  path: string,
  model: string,
  body: Record<string, unknown>,
  stream: boolean,
  extraHeaders: Record<string, string> = {},
  expectFromGateway?: Record<string, string>,
): Scenario {
  return {
    name,
    stream,
    portkey: false,
    request(target, info) {
      if (target === 'portkey') return portkeyRequest(path, body, info, stream)
      const isGateway = target === 'gateway'
      const full = { model: isGateway ? model : 'up-model', ...body, ...(stream ? { stream: true } : {}) }
      return {
        path: target === 'direct' ? `/v1${path}` : `/api/v1${path}`,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${isGateway ? (info.key ?? '') : 'bench'}`,
          ...extraHeaders,
        },
        body: JSON.stringify(full),
        stream,
        ...(isGateway && expectFromGateway !== undefined ? { expectHeaders: expectFromGateway } : {}),
      }
    },
  }
}

const responsesBody = { input: 'Say hello to the benchmark.', max_output_tokens: 200 }
const chatBody = { messages: [{ role: 'user', content: 'Say hello to the benchmark.' }], max_tokens: 200 }
const messagesBody = chatBody
const anthropicHeaders = { 'anthropic-version': '2023-06-01' }
const embeddingsBody = { input: 'Say hello to the benchmark.' }

const servedByPortkey = (served: Scenario): Scenario => ({ ...served, portkey: true })

export const scenarios: readonly Scenario[] = [
  servedByPortkey(scenario('responses', '/responses', 'bench/responses', responsesBody, false)),
  servedByPortkey(scenario('chat', '/chat/completions', 'bench/chat', chatBody, false)),
  servedByPortkey(scenario('responses-stream', '/responses', 'bench/responses', responsesBody, true)),
  servedByPortkey(scenario('chat-stream', '/chat/completions', 'bench/chat', chatBody, true)),
  // The upstream answers one vector of 1,536 full-precision floats (~30 KB of JSON).
  servedByPortkey(scenario('embeddings', '/embeddings', 'bench/embeddings', embeddingsBody, false)),
  scenario('messages', '/messages', 'bench/anthropic', messagesBody, false, anthropicHeaders),
  scenario('messages-stream', '/messages', 'bench/anthropic', messagesBody, true, anthropicHeaders),
  // A Responses client served by a Chat Completions provider: the gateway translates every event.
  // direct and proxy send the same Responses request to the upstream's own /v1/responses.
  scenario('responses-stream-via-chat', '/responses', 'bench/responses-via-chat', responsesBody, true),
  // The same chat request every time with X-OpenRouter-Cache: true: after the warm-up's first miss the
  // gateway answers each one from its response cache (memory store) without calling the upstream; an
  // answer that is not a HIT counts as an error. direct and proxy pass the header to the upstream,
  // which ignores it, so they show the pass-through a hit is compared with.
  scenario(
    'chat-cache-hit',
    '/chat/completions',
    'bench/chat',
    chatBody,
    false,
    { 'x-openrouter-cache': 'true' },
    { 'x-openrouter-cache-status': 'HIT' },
  ),
]

export function shapeName(shape: LoadShape): string {
  return shape.kind === 'closed' ? `c${shape.connections}` : `${shape.rate}/s`
}

export const fullShapes: readonly LoadShape[] = [
  { kind: 'closed', connections: 1 },
  { kind: 'closed', connections: 16 },
  { kind: 'closed', connections: 64 },
  { kind: 'open', rate: 500 },
  { kind: 'open', rate: 2000 },
]

export const quickShapes: readonly LoadShape[] = [
  { kind: 'closed', connections: 1 },
  { kind: 'closed', connections: 64 },
]
