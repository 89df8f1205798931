// A bounded, seeded fuzzer over every operation of /api/v1/openapi.json, on SQLite and (when
// TEST_DATABASE_URL / TEST_REDIS_URL are set) PostgreSQL + Redis: hostile path and query parameters and
// bodies (openapi-fuzz-requests.ts) with a management or an inference key. No answer may be a 5xx, every
// 4xx carries the error envelope (Anthropic's error shape on the Messages routes), and /health, asked
// over a socket, is not held by a request. Timing must not decide a test on a loaded machine, so a stall
// counts only when it repeats three times and exceeds a bound scaled to the request: the gateway's work
// on a body is linear in its size, so /health may wait up to a multiple of what this process spends
// parsing and serializing the same body, and never less than a floor that only a superlinear check or a
// backtracking regex reaches. test/http/worst-inputs-health.test.ts proves the known worst inputs by
// ordering alone.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget, redisTarget } from '../support/test-services.ts'
import { mintKey, noRuntime } from '../interns/intern-test-kit.ts'
import {
  operationsOf,
  requestsFor,
  type FuzzRequest,
  type OpenApiDocument,
  type Operation,
} from './openapi-fuzz-requests.ts'

const seed = 35
const runsPerOperation = 5
/** /health between two requests: the gateway is not left busy by the one before (three tries over it fail). */
const healthBoundMs = 1000
/** /health while a request runs: the floor of a stall, the seconds-long kind superlinear work causes. */
const stallMs = 2000
/** How many times this process's own parse and serialization of the body a linear handling may take. */
const linearFactor = 50

/** The time this process takes to parse and serialize a body: the unit a linear handling of it costs. */
function linearUnitMs(payload: string | undefined): number {
  if (payload === undefined) return 0
  const started = performance.now()
  try {
    JSON.stringify(JSON.parse(payload))
  } catch {
    // Not JSON: the gateway refuses it at the parser, in time linear in its size too.
  }
  return performance.now() - started
}

interface Answer {
  readonly status: number
  readonly text: string
  readonly healthMs: number
}

/** The request in a line: its URL and the start of its body, both cut short. */
function describeRequest(request: FuzzRequest): string {
  const body =
    request.payload === undefined
      ? 'no body'
      : `body ${request.payload.slice(0, 120)} (${request.payload.length} chars)`
  return `${request.method} ${request.url.slice(0, 160)} with the ${request.keyName} key, ${body}`
}

function isEnvelope(path: string, status: number, text: string): boolean {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return false
  }
  if (typeof body !== 'object' || body === null) return false
  const error = (body as { error?: { code?: unknown; message?: unknown; type?: unknown } }).error
  if (typeof error !== 'object' || error === null || typeof error.message !== 'string') return false
  const isAnthropic = /\/messages(\/count_tokens)?$/.test(path.split('?')[0]!)
  if (isAnthropic && (body as { type?: unknown }).type === 'error') return typeof error.type === 'string'
  return error.code === status
}

for (const [engine, databaseUrl, redisUrl] of [
  ['sqlite', undefined, undefined],
  ['postgres + redis', postgresTarget().url, redisTarget().url],
] as const) {
  const skip = engine === 'sqlite' ? false : postgresTarget().skip || redisTarget().skip
  describe(`OpenAPI fuzzer on ${engine}`, { skip }, () => {
    let gateway: TestGateway
    let base: string
    let keys: Record<FuzzRequest['keyName'], string>
    let operations: Operation[]

    before(async () => {
      gateway = await startTestGateway({
        yaml: noRuntime,
        ...(databaseUrl === undefined ? {} : { postgresUrl: databaseUrl }),
        ...(redisUrl === undefined ? {} : { env: { REDIS_URL: redisUrl } }),
      })
      base = await gateway.listen()
      keys = {
        management: gateway.adminKey,
        inference: await mintKey(gateway, 'inference', gateway.gateway.bootstrap.defaultWorkspaceId),
      }
      const document = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as OpenApiDocument
      operations = operationsOf(document)
    })
    after(() => gateway.close())

    const healthMs = async (): Promise<number> => {
      const started = performance.now()
      const response = await fetch(`${base}/health`)
      await response.arrayBuffer()
      return performance.now() - started
    }

    const send = async (request: FuzzRequest): Promise<Answer> => {
      const health = healthMs()
      const response = await gateway.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: {
          authorization: `Bearer ${keys[request.keyName]}`,
          ...(request.payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(request.payload === undefined ? {} : { payload: request.payload }),
      })
      return { status: response.statusCode, text: response.body, healthMs: await health }
    }

    test(`every operation answers hostile input with a 4xx in the envelope, and /health keeps answering (${engine})`, async () => {
      assert.ok(operations.length > 100, `${operations.length} operations`)
      const findings: string[] = []
      let sent = 0
      for (const [index, operation] of operations.entries()) {
        for (const request of fc.sample(requestsFor(operation), { seed: seed + index, numRuns: runsPerOperation })) {
          const answer = await send(request)
          sent++
          const where = `${operation.method} ${operation.path} as ${describeRequest(request)}`
          if (answer.status >= 500) findings.push(`${where}: ${answer.status} ${answer.text.slice(0, 300)}`)
          else if (answer.status >= 400 && !isEnvelope(request.url, answer.status, answer.text))
            findings.push(`${where}: ${answer.status} without the error envelope: ${answer.text.slice(0, 300)}`)
          const stallBoundMs = () => Math.max(stallMs, linearFactor * linearUnitMs(request.payload))
          if (answer.healthMs > stallBoundMs()) {
            const times = [answer.healthMs, (await send(request)).healthMs, (await send(request)).healthMs]
            if (times.every((ms) => ms > stallBoundMs()))
              findings.push(`${where}: /health took ${times.map((ms) => ms.toFixed(0)).join(', ')} ms meanwhile`)
          }
          const after = [await healthMs(), await healthMs(), await healthMs()]
          if (after.every((ms) => ms > healthBoundMs))
            findings.push(`${where}: /health took ${after.map((ms) => ms.toFixed(0)).join(', ')} ms after it`)
        }
      }
      assert.deepEqual(findings, [])
      assert.equal(sent, operations.length * runsPerOperation)
    })
  })
}
