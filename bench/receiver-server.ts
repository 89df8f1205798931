// Child process: the benchmark's observability receivers, in a process of their own (on the load
// generator's core). POST /v1/traces answers as an OTLP/HTTP collector does (200, an empty
// ExportTraceServiceResponse) after reading the export request down to its spans and counting them;
// POST /hook answers as a webhook receiver. At the end it prints what it received. Counting instead of
// decoding, away from the fake upstream, keeps the receiver from stalling the upstream's event loop
// (~2 ms per export of ~80 spans), which the benchmark would charge to the gateway.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { countOtlpSpans } from '../test/observability/support/decode-otlp-traces.ts'
import { serveHttpChild } from './http-child.ts'

const received = { hooks: 0, otlpRequests: 0, otlpSpans: 0 }

interface JsonTraces {
  readonly resourceSpans?: readonly { readonly scopeSpans?: readonly { readonly spans?: readonly unknown[] }[] }[]
}

function countJsonSpans(body: Buffer): number {
  const traces = JSON.parse(body.toString('utf8')) as JsonTraces
  return (traces.resourceSpans ?? [])
    .flatMap((resource) => resource.scopeSpans ?? [])
    .reduce((sum, scope) => sum + (scope.spans?.length ?? 0), 0)
}

function receiveTraces(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
  received.otlpRequests++
  const isJson = (request.headers['content-type'] ?? '').includes('json')
  received.otlpSpans += isJson ? countJsonSpans(body) : countOtlpSpans(body)
  response
    .writeHead(200, { 'content-type': isJson ? 'application/json' : 'application/x-protobuf' })
    .end(isJson ? '{}' : '')
}

function answer(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
  if (request.method === 'POST' && request.url === '/hook') {
    received.hooks++
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    return
  }
  if (request.method === 'POST' && request.url === '/v1/traces') {
    receiveTraces(request, response, body)
    return
  }
  response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}')
}

serveHttpChild(answer, () => {
  process.stderr.write(
    `receiver: ${received.hooks} webhook deliveries received; ${received.otlpSpans} OTLP spans in ${received.otlpRequests} export requests\n`,
  )
})
