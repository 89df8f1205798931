// Test plumbing shared by the fake-upstream tests: send an adapter's request to a fake upstream over
// a real socket and read the answer back through SSE framing and the adapter's stream parser.

import { request } from 'undici'
import type { CanonicalCall } from '../../src/domain/inference/call.ts'
import type { StreamEvent } from '../../src/domain/inference/stream-event.ts'
import type { ProviderAdapter } from '../../src/providers/provider-adapter.ts'
import { createSseFramer } from '../../src/providers/sse-framing.ts'

export async function callThroughAdapter(
  adapter: ProviderAdapter,
  baseUrl: string,
  call: CanonicalCall,
  apiKey = 'test-key',
): Promise<{ status: number; events: StreamEvent[]; json: unknown }> {
  const upstreamRequest = adapter.buildRequest(call, { apiKey })
  const response = await request(baseUrl + upstreamRequest.path, {
    method: upstreamRequest.method,
    headers: upstreamRequest.headers,
    body: JSON.stringify(upstreamRequest.body),
  })
  if (!call.stream || response.statusCode !== 200)
    return { status: response.statusCode, events: [], json: await response.body.json() }
  const framer = createSseFramer()
  const parser = adapter.createStreamParser()
  const events: StreamEvent[] = []
  try {
    for await (const chunk of response.body)
      for (const sse of framer.push(chunk as Buffer)) events.push(...parser.push(sse))
  } catch {
    // a dropped connection: the parser decides what the partial stream means
  }
  for (const sse of framer.end()) events.push(...parser.push(sse))
  events.push(...parser.end())
  return { status: response.statusCode, events, json: undefined }
}
