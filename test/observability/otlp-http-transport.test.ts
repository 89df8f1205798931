// The OTLP/HTTP transport against a real loopback server: how each answer is classified (as
// OpenTelemetry's own HTTP transport classifies it) and the retry policy, with the retry's clock, sleep
// and jitter injected so no test waits on real backoff.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import { OTLPExporterError } from '@opentelemetry/otlp-exporter-base'
import {
  RetryingOtlpTransport,
  UndiciOtlpTransport,
  retryAfterMillis,
  type OtlpHttpParameters,
  type RetryTiming,
} from '../../src/observability/exporters/otlp-http-transport.ts'

interface Answer {
  readonly status: number
  readonly headers?: Record<string, string>
  readonly body?: string | Buffer
  /** Never answer (the request times out). */
  readonly hang?: boolean
}

interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

/** Answers each request with the next scripted answer (the last one repeats) and records what came. */
async function scriptedServer(answers: readonly Answer[]) {
  const received: Received[] = []
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) })
      const answer = answers[Math.min(received.length, answers.length) - 1]!
      if (answer.hang === true) return
      response.writeHead(answer.status, answer.headers).end(answer.body ?? '')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    received,
    url: `http://127.0.0.1:${port}/v1/traces`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function parameters(url: string, more: Partial<OtlpHttpParameters> = {}): OtlpHttpParameters {
  return {
    url,
    headers: async () => ({ 'Content-Type': 'application/x-protobuf', 'x-team': 'switchyard' }),
    compression: 'none',
    ...more,
  }
}

/** A clock that moves only when the retry sleeps; jitter at its midpoint (none). */
function fakeTiming(): RetryTiming & { readonly sleeps: number[] } {
  let now = 1_000_000
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms)
      now += Math.max(0, ms)
    },
    random: () => 0.5,
  }
}

const payload = new Uint8Array([10, 3, 1, 2, 3])

test('a 2xx is success: the bytes, the configured headers and the exporter user agent arrive', async () => {
  const server = await scriptedServer([{ status: 200, body: 'partial' }])
  const transport = new UndiciOtlpTransport(parameters(server.url, { userAgent: 'switchyard/1' }))
  try {
    const result = await transport.send(payload, 5000)
    assert.equal(result.status, 'success')
    assert.equal(Buffer.from((result as { data: Uint8Array }).data).toString(), 'partial')
    const [request] = server.received
    assert.deepEqual([...request!.body], [...payload])
    assert.equal(request!.headers['content-type'], 'application/x-protobuf')
    assert.equal(request!.headers['x-team'], 'switchyard')
    assert.equal(request!.headers['user-agent'], 'switchyard/1 OTel-OTLP-Exporter-JavaScript/0.223.1')
  } finally {
    await transport.close()
    await server.close()
  }
})

test('gzip compression sends the gzipped body with Content-Encoding', async () => {
  const server = await scriptedServer([{ status: 200 }])
  const transport = new UndiciOtlpTransport(parameters(server.url, { compression: 'gzip' }))
  try {
    assert.equal((await transport.send(payload, 5000)).status, 'success')
    const [request] = server.received
    assert.equal(request!.headers['content-encoding'], 'gzip')
    assert.deepEqual([...gunzipSync(request!.body)], [...payload])
  } finally {
    await transport.close()
    await server.close()
  }
})

test('a status OpenTelemetry does not retry is a failure carrying the status, reason and body', async () => {
  const server = await scriptedServer([{ status: 400, body: 'bad span' }])
  const transport = new UndiciOtlpTransport(parameters(server.url))
  try {
    const result = await transport.send(payload, 5000)
    assert.equal(result.status, 'failure')
    const error = (result as { error: Error }).error
    assert.ok(error instanceof OTLPExporterError)
    assert.equal(error.code, 400)
    assert.equal(error.message, 'Bad Request')
    assert.equal(error.data, 'bad span')
  } finally {
    await transport.close()
    await server.close()
  }
})

test('429, 502, 503 and 504 are retryable, after their Retry-After when they give one', async () => {
  const server = await scriptedServer([
    { status: 429, headers: { 'retry-after': '3' } },
    { status: 502 },
    { status: 503, headers: { 'retry-after': '0' } },
    { status: 504 },
  ])
  const transport = new UndiciOtlpTransport(parameters(server.url))
  try {
    const results = []
    for (let index = 0; index < 4; index++) results.push(await transport.send(payload, 5000))
    assert.deepEqual(results, [
      { status: 'retryable', retryInMillis: 3000 },
      { status: 'retryable' },
      { status: 'retryable', retryInMillis: -1 },
      { status: 'retryable' },
    ])
  } finally {
    await transport.close()
    await server.close()
  }
})

test('a refused connection is retryable; a request that gets no answer times out as retryable', async () => {
  const server = await scriptedServer([{ status: 200, hang: true }])
  const closed = await scriptedServer([{ status: 200 }])
  const refusedUrl = closed.url
  await closed.close()
  const refused = new UndiciOtlpTransport(parameters(refusedUrl))
  const hanging = new UndiciOtlpTransport(parameters(server.url))
  try {
    const refusal = await refused.send(payload, 5000)
    assert.equal(refusal.status, 'retryable')
    const timeout = await hanging.send(payload, 200)
    assert.deepEqual(
      [timeout.status, (timeout as { error?: Error }).error?.message],
      ['retryable', 'Request timed out'],
    )
  } finally {
    await refused.close()
    await hanging.close()
    await server.close()
  }
})

test('retries follow OpenTelemetry: Retry-After first, then 1 s backing off 1.5x, until the deadline', async () => {
  const server = await scriptedServer([{ status: 503, headers: { 'retry-after': '2' } }, { status: 503 }])
  const timing = fakeTiming()
  const transport = new RetryingOtlpTransport(new UndiciOtlpTransport(parameters(server.url)), timing)
  try {
    const result = await transport.send(payload, 10_000)
    assert.equal(result.status, 'retryable')
    // 2000 (Retry-After), then the backoff from the second retry on: 1500, 2250, 3375 (9125 ms gone); the
    // next (5000, the cap) would start after the 10 s deadline, so the export ends there.
    assert.deepEqual(timing.sleeps, [2000, 1500, 2250, 3375])
    assert.equal(server.received.length, 5)
  } finally {
    await transport.close()
    await server.close()
  }
})

test('a retry that succeeds ends the export as success; a failure is not retried', async () => {
  const recovering = await scriptedServer([{ status: 502 }, { status: 504 }, { status: 200 }])
  const refusing = await scriptedServer([{ status: 401 }, { status: 200 }])
  const timing = fakeTiming()
  const first = new RetryingOtlpTransport(new UndiciOtlpTransport(parameters(recovering.url)), timing)
  const second = new RetryingOtlpTransport(new UndiciOtlpTransport(parameters(refusing.url)), timing)
  try {
    assert.equal((await first.send(payload, 30_000)).status, 'success')
    assert.deepEqual(timing.sleeps, [1000, 1500])
    assert.equal((await second.send(payload, 30_000)).status, 'failure')
    assert.equal(refusing.received.length, 1)
  } finally {
    await first.close()
    await second.close()
    await recovering.close()
    await refusing.close()
  }
})

test('Retry-After is read as seconds or an HTTP date, as OpenTelemetry reads it', () => {
  const now = Date.parse('2026-12-02T12:00:00Z')
  assert.equal(retryAfterMillis(undefined, now), undefined)
  assert.equal(retryAfterMillis('7', now), 7000)
  assert.equal(retryAfterMillis('0', now), -1)
  assert.equal(retryAfterMillis('Wed, 02 Dec 2026 12:00:09 GMT', now), 9000)
  assert.equal(retryAfterMillis('Wed, 02 Dec 2026 11:59:00 GMT', now), 0)
  assert.equal(retryAfterMillis(['4', '9'], now), 4000)
})
