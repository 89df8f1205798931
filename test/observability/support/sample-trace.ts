// A complete GenerationTrace for tests; override any field.
import type { GenerationTrace } from '../../../src/observability/generation-trace.ts'

export const promptText = 'The secret launch code is PELICAN-42'
export const completionText = 'I cannot share launch codes.'

export function sampleTrace(workspaceId: string, overrides: Partial<GenerationTrace> = {}): GenerationTrace {
  return {
    generationId: `gen-${Math.random().toString(36).slice(2)}`,
    requestId: 'req-1',
    workspaceId,
    apiKeyHash: 'a'.repeat(64),
    apiKeyName: 'ci key',
    model: 'acme/fast-1',
    provider: 'acme',
    timing: {
      startedAt: '2026-03-04T05:06:07.000Z',
      endedAt: '2026-03-04T05:06:08.250Z',
      latencyMs: 1250,
      timeToFirstTokenMs: 300,
    },
    usage: { promptTokens: 12, completionTokens: 7, cachedTokens: 2, reasoningTokens: 1 },
    finishReason: 'stop',
    sessionId: 'session-9',
    user: 'end-user-7',
    costUsd: 0.000025,
    costAllocation: { prompt: 0.000012, completion: 0.00001, cached: 0.000002, reasoning: 0.000001 },
    requestContext: {
      headers: { 'http-referer': 'https://app.example.com', 'x-title': 'Example App' },
      trace: { trace_name: 'checkout' },
    },
    input: { messages: [{ role: 'user', content: promptText }] },
    output: { text: completionText, reasoning: null },
    ...overrides,
  }
}
