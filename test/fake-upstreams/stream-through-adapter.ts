// Test plumbing shared by the fake-upstream tests: send an adapter's request to a fake upstream over
// a real socket (serialized and authorized as the gateway does) and read the answer back through the
// adapter's framing and stream parser.

import { request } from 'undici'
import type { CanonicalCall } from '../../src/domain/inference/call.ts'
import type { StreamEvent } from '../../src/domain/inference/stream-event.ts'
import type { ProviderAdapter, ProviderSettings } from '../../src/providers/provider-adapter.ts'
import { createFramer } from '../../src/providers/framing.ts'
import { authorizeRequest } from '../../src/inference/upstream/authorize-request.ts'
import type { ProviderEntry } from '../../src/domain/catalog.ts'

/** A provider entry for `baseUrl`, as the catalog would build it. */
export function providerAt(
  baseUrl: string,
  api: ProviderEntry['api'],
  settings: Partial<ProviderSettings> = {},
): ProviderEntry {
  return {
    slug: settings.slug ?? 'fake',
    name: 'Fake',
    api,
    baseUrl,
    apiKey: settings.apiKey === undefined ? 'test-key' : settings.apiKey,
    headers: {},
    // A Vertex provider needs its project (the location is in the URL or here).
    options: settings.options ?? (api === 'vertex' ? { project: 'fake-project', location: 'us-central1' } : {}),
    dataCollection: 'deny',
    zdr: false,
    region: 'global',
    timeoutMs: 10_000,
    source: 'config',
  }
}

export async function callThroughAdapter(
  adapter: ProviderAdapter,
  baseUrl: string,
  call: CanonicalCall,
  provider: ProviderEntry = providerAt(baseUrl, adapter.api),
): Promise<{ status: number; events: StreamEvent[]; json: unknown }> {
  const prepared = await authorizeRequest(provider, adapter, adapter.buildRequest(call, provider))
  const response = await request(baseUrl + prepared.path, {
    method: 'POST',
    headers: prepared.headers,
    body: prepared.body,
  })
  if (!call.stream || response.statusCode !== 200)
    return { status: response.statusCode, events: [], json: await response.body.json() }
  const framer = createFramer(adapter.framing)
  const parser = adapter.createStreamParser()
  const events: StreamEvent[] = []
  try {
    for await (const chunk of response.body)
      for (const sse of framer.push(chunk as Buffer)) events.push(...parser.push(sse))
  } catch {
    // a dropped connection: the parser decides what the partial stream means
  }
  try {
    for (const frame of framer.end()) events.push(...parser.push(frame))
  } catch {
    // a body cut inside a frame: the parser decides what the partial stream means
  }
  events.push(...parser.end())
  return { status: response.statusCode, events, json: undefined }
}
