// Validates a private endpoint with real requests: a small completion (auth_ok, model_found,
// completion_ok, usage_present) and the same completion streamed (stream_ok, and its usage). A check
// that cannot run because an earlier one failed is reported failed with the earlier reason.
import { GatewayError } from '../../domain/errors.ts'
import {
  checkNames,
  validationOf,
  type CheckName,
  type CheckReason,
  type EndpointCheck,
  type EndpointValidation,
} from '../../domain/endpoint-validation.ts'
import type { CanonicalResult } from '../../domain/inference/result.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import { endpointAdapter } from '../upstream/endpoint-adapter.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { UpstreamTransport } from '../upstream/upstream-transport.ts'
import { ProbeDeadline, probeExchange, type Exchange } from './probe-exchange.ts'
import { readProbeStream } from './read-probe-stream.ts'

export interface EndpointCheckOptions {
  readonly transport: UpstreamTransport
  /** The whole validation must finish within this; otherwise GatewayError('timeout') (HTTP 408). */
  readonly timeoutMs: number
}

type Checks = Map<CheckName, EndpointCheck>

export async function runEndpointChecks(
  endpoint: EndpointEntry,
  options: EndpointCheckOptions,
): Promise<EndpointValidation> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), options.timeoutMs)
  try {
    const checks: Checks = new Map()
    await probe(endpoint, checks, controller.signal, options.transport)
    if (controller.signal.aborted) throw new ProbeDeadline()
    return validationOf(checkNames.map((name) => checks.get(name) ?? notRun(name, checks)))
  } catch (error) {
    if (!(error instanceof ProbeDeadline) && !controller.signal.aborted) throw error
    throw new GatewayError(
      'timeout',
      `Validation timed out after ${Math.round(options.timeoutMs / 1000)} s: ${endpoint.provider.baseUrl} did not answer in time`,
    )
  } finally {
    clearTimeout(timer)
  }
}

async function probe(
  endpoint: EndpointEntry,
  checks: Checks,
  signal: AbortSignal,
  transport: UpstreamTransport,
): Promise<void> {
  const result = await completionChecks(endpoint, await probeExchange(endpoint, false, signal, transport), checks)
  if (result === null) return
  const streamed = await streamCheck(endpoint, await probeExchange(endpoint, true, signal, transport), checks, signal)
  const missing = [
    usageProblem(result.usage, 'the completion'),
    streamed === undefined ? null : usageProblem(streamed, 'the stream'),
  ].filter((problem) => problem !== null)
  checks.set(
    'usage_present',
    missing.length === 0
      ? passed('usage_present')
      : failed('usage_present', 'missing_usage', { upstream_message: missing.join('; ') }),
  )
}

/** Sets auth_ok, model_found and completion_ok; returns the result when the completion was usable. */
async function completionChecks(
  endpoint: EndpointEntry,
  exchange: Exchange,
  checks: Checks,
): Promise<CanonicalResult | null> {
  if (exchange.kind === 'unreachable') {
    checks.set('auth_ok', failed('auth_ok', 'upstream_error', { upstream_message: exchange.message }))
    return null
  }
  if (exchange.kind === 'http-error') {
    httpErrorChecks(endpoint, exchange, checks)
    return null
  }
  checks.set('auth_ok', passed('auth_ok'))
  let result: CanonicalResult
  try {
    result = endpointAdapter(endpoint).parseResponse(await exchange.answer.body.json())
  } catch (error) {
    checks.set('model_found', passed('model_found'))
    checks.set(
      'completion_ok',
      failed('completion_ok', 'invalid_response', {
        upstream_message: `the completion is not well-formed: ${(error as Error).message}`,
      }),
    )
    return null
  }
  resultChecks(endpoint, result, checks)
  return result
}

/** Sets auth_ok, model_found and completion_ok as far as an error status tells them. */
function httpErrorChecks(
  endpoint: EndpointEntry,
  exchange: Extract<Exchange, { kind: 'http-error' }>,
  checks: Checks,
): void {
  const details = { upstream_status: exchange.status, upstream_message: exchange.message }
  if (exchange.status === 401 || exchange.status === 403) {
    checks.set(
      'auth_ok',
      failed('auth_ok', endpoint.provider.apiKey === null ? 'no_byok_key' : 'upstream_error', details),
    )
    return
  }
  checks.set('auth_ok', passed('auth_ok'))
  const mentionsModel = /model/i.test(exchange.raw)
  if (exchange.status === 404 || ((exchange.status === 400 || exchange.status === 422) && mentionsModel)) {
    checks.set('model_found', failed('model_found', mentionsModel ? 'model_not_found' : 'endpoint_not_found', details))
    return
  }
  checks.set('model_found', passed('model_found'))
  checks.set('completion_ok', failed('completion_ok', 'upstream_error', details))
}

/** Sets model_found (the model that answered is the one asked for) and completion_ok (it said something). */
function resultChecks(endpoint: EndpointEntry, result: CanonicalResult, checks: Checks): void {
  const actual = result.model === '' ? null : result.model
  const matches = actual === null || isSameModel(endpoint.upstreamModelId, actual)
  checks.set(
    'model_found',
    matches
      ? { ...passed('model_found'), actual_model: actual }
      : failed('model_found', 'model_mismatch', {
          actual_model: actual,
          upstream_message: `asked for ${endpoint.upstreamModelId}, ${actual} answered`,
        }),
  )
  const hasOutput = result.output.some(
    (item) => (item.type === 'text' && item.text !== '') || item.type === 'tool-call',
  )
  checks.set(
    'completion_ok',
    hasOutput
      ? passed('completion_ok')
      : failed('completion_ok', 'invalid_response', { upstream_message: 'the completion has no output' }),
  )
}

/** Sets stream_ok; returns the usage the stream reported, or undefined when the stream failed. */
async function streamCheck(
  endpoint: EndpointEntry,
  exchange: Exchange,
  checks: Checks,
  signal: AbortSignal,
): Promise<Usage | null | undefined> {
  if (exchange.kind === 'unreachable') {
    checks.set('stream_ok', failed('stream_ok', 'upstream_error', { upstream_message: exchange.message }))
    return undefined
  }
  if (exchange.kind === 'http-error') {
    checks.set(
      'stream_ok',
      failed('stream_ok', 'upstream_error', { upstream_status: exchange.status, upstream_message: exchange.message }),
    )
    return undefined
  }
  const read = await readProbeStream(endpointAdapter(endpoint), exchange.answer)
  if (signal.aborted) throw new ProbeDeadline()
  if (read.problem !== null) {
    checks.set('stream_ok', failed('stream_ok', 'invalid_stream', { upstream_message: read.problem }))
    return undefined
  }
  checks.set('stream_ok', passed('stream_ok'))
  return read.usage
}

function usageProblem(usage: Usage | null, where: string): string | null {
  if (usage === null) return `${where} reported no usage`
  if (usage.input_tokens <= 0 || usage.output_tokens <= 0)
    return `${where} reported ${usage.input_tokens} input and ${usage.output_tokens} output tokens`
  return null
}

/** Upstreams often answer with a dated or prefixed id (`gpt-4o` -> `gpt-4o-2024-08-06`, `models/x`). */
function isSameModel(asked: string, actual: string): boolean {
  const normalize = (id: string): string => id.toLowerCase().replace(/^models\//, '')
  const a = normalize(asked)
  const b = normalize(actual)
  return a === b || b.startsWith(a) || a.startsWith(b) || a.endsWith(`/${b}`) || b.endsWith(`/${a}`)
}

function passed(name: CheckName): EndpointCheck {
  return { name, passed: true }
}

function failed(
  name: CheckName,
  reason: CheckReason,
  details: Partial<Omit<EndpointCheck, 'name' | 'passed' | 'reason'>> = {},
): EndpointCheck {
  return { name, passed: false, reason, ...details }
}

function notRun(name: CheckName, checks: Checks): EndpointCheck {
  const blocking = [...checks.values()].find((check) => !check.passed)
  return {
    name,
    passed: false,
    reason: blocking?.reason ?? 'upstream_error',
    upstream_message: `not run: ${blocking?.name ?? 'an earlier check'} failed`,
  }
}
