// What the benchmark sends: each scenario is one client request, addressed three ways. `direct` goes
// straight to the fake upstream (the zero-overhead baseline), `proxy` through the bare pass-through
// proxy, `gateway` through Switchyard with a real inference key.
import type { LoadShape, RequestSpec } from './load.ts'

export type TargetName = 'direct' | 'proxy' | 'gateway'
export const targetNames: readonly TargetName[] = ['direct', 'proxy', 'gateway']

export interface Scenario {
  readonly name: string
  readonly stream: boolean
  request(target: TargetName, gatewayKey: string): RequestSpec
}

function scenario(name: string, path: string, model: string, body: Record<string, unknown>, stream: boolean): Scenario {
  return {
    name,
    stream,
    request(target, gatewayKey) {
      const isGateway = target === 'gateway'
      const full = { model: isGateway ? model : 'up-model', ...body, ...(stream ? { stream: true } : {}) }
      return {
        path: target === 'direct' ? `/v1${path}` : `/api/v1${path}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${isGateway ? gatewayKey : 'bench'}` },
        body: JSON.stringify(full),
        stream,
      }
    },
  }
}

const responsesBody = { input: 'Say hello to the benchmark.', max_output_tokens: 200 }
const chatBody = { messages: [{ role: 'user', content: 'Say hello to the benchmark.' }], max_tokens: 200 }

export const scenarios: readonly Scenario[] = [
  scenario('responses', '/responses', 'bench/responses', responsesBody, false),
  scenario('chat', '/chat/completions', 'bench/chat', chatBody, false),
  scenario('responses-stream', '/responses', 'bench/responses', responsesBody, true),
  scenario('chat-stream', '/chat/completions', 'bench/chat', chatBody, true),
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
