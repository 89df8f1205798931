// Outbound HTTP for interns with host-bound secret release. The agent writes `{{secret:NAME}}` in a
// header value or the body; the intern's effective secret NAME is substituted only when the request's
// host equals one of the secret's bound hosts exactly after normalisation (lowercase, trailing dot
// removed, IDNA to punycode). Anything else (a parent domain, a subdomain, another host, a lookalike,
// a redirect that leaves for another host) is refused before any byte goes out, with an error the agent
// sees. Redirects are followed by hand, each hop re-checked. Responses are masked (`[secret:NAME]`)
// before they are returned, so values never reach the model, the stream, logs or stored content.
import { lookup as dnsLookup } from 'node:dns'
import type { LookupFunction } from 'node:net'
import { domainToASCII } from 'node:url'
import { Agent, request, type Dispatcher } from 'undici'
import { GatewayError } from '../domain/errors.ts'
import { egressProblem, isInternalAddress, type EgressPolicy } from '../http/egress-policy.ts'
import { maskSecrets, type KnownSecret } from './mask-secrets.ts'

export interface EgressRequest {
  readonly method: string
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
}

export interface EgressResponse {
  readonly status: number
  readonly url: string
  readonly headers: Record<string, string>
  /** Masked, and cut to `maxResponseBytes`. */
  readonly body: string
  readonly truncated: boolean
}

/** The intern's effective secret NAME decrypted, with its bound hosts (null: legacy, never released). */
export type SecretSource = (name: string) => Promise<{ value: string; hosts: readonly string[] | null } | null>

export interface SecretEgressDeps {
  readonly policy: EgressPolicy
  readonly secrets: SecretSource
  /** Name resolution for connections (tests map names to 127.0.0.1); default: the system resolver. */
  readonly lookup?: LookupFunction
  readonly maxRedirects?: number
  readonly maxResponseBytes?: number
  readonly timeoutMs?: number
}

const placeholder = /\{\{\s*secret:([a-z0-9_]+)\s*\}\}/g
const mentionsSecret = /\{\{\s*secret:/
const forbiddenHeaders = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
])
const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

const refuse = (message: string): never => {
  throw new GatewayError('invalid_request', `http_request refused: ${message}`)
}

/** A host as secrets are bound to it: lowercase, IDNA to punycode, without a trailing dot; '' when invalid. */
export function normalizeRequestHost(hostname: string): string {
  const bare = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '')
  return domainToASCII(bare).replace(/\.$/, '')
}

function referencedNames(request: EgressRequest): string[] {
  const texts = [...Object.values(request.headers ?? {}), request.body ?? '']
  return [...new Set(texts.flatMap((text) => [...text.matchAll(placeholder)].map((match) => match[1] ?? '')))]
}

async function resolveReferenced(
  deps: SecretEgressDeps,
  names: readonly string[],
): Promise<Map<string, { value: string; hosts: readonly string[] }>> {
  const resolved = new Map<string, { value: string; hosts: readonly string[] }>()
  for (const name of names) {
    const secret = await deps.secrets(name)
    if (secret === null) refuse(`no secret named "${name}" is available to this intern`)
    else if (secret.hosts === null)
      refuse(`secret "${name}" has no bound hosts (stored before host binding); store it again with hosts`)
    else resolved.set(name, { value: secret.value, hosts: secret.hosts.map(normalizeRequestHost) })
  }
  return resolved
}

/** Refuses unless every referenced secret is bound to `host` exactly. */
function assertBound(host: string, secrets: ReadonlyMap<string, { hosts: readonly string[] }>): void {
  for (const [name, secret] of secrets) {
    if (host === '' || !secret.hosts.includes(host)) {
      refuse(
        `secret "${name}" is only released to ${secret.hosts.join(', ')}; the request goes to ${host === '' ? 'an invalid host' : host}. No request was sent`,
      )
    }
  }
}

function substitute(text: string, secrets: ReadonlyMap<string, { value: string }>): string {
  return text.replace(placeholder, (_match, name: string) => secrets.get(name)?.value ?? '')
}

function checkedUrl(url: string, policy: EgressPolicy): URL {
  const problem = egressProblem(url, policy)
  if (problem !== null) refuse(problem)
  return new URL(url)
}

/** A lookup that refuses internal addresses unless the policy allows them (checked at connect time: no rebinding gap). */
function guardedLookup(base: LookupFunction, policy: EgressPolicy): LookupFunction {
  return ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    base(
      hostname,
      { ...options, all: true } as never,
      ((error: Error | null, addresses: { address: string; family: number }[]) => {
        if (error !== null) return callback(error)
        const usable = policy.allowPrivateNetworks
          ? addresses
          : addresses.filter((entry) => !isInternalAddress(entry.address))
        const first = usable[0]
        if (first === undefined) return callback(new Error(`host ${hostname} resolves only to internal addresses`))
        if ((options as { all?: boolean }).all === true) return callback(null, usable)
        return callback(null, first.address, first.family)
      }) as never,
    )
  }) as LookupFunction
}

export interface SecretEgress {
  send(request: EgressRequest): Promise<EgressResponse>
  close(): Promise<void>
}

export function createSecretEgress(deps: SecretEgressDeps): SecretEgress {
  const agent = new Agent({
    connect: { lookup: guardedLookup(deps.lookup ?? (dnsLookup as LookupFunction), deps.policy) },
  })
  return {
    send: async (egressRequest) => sendWithSecrets(deps, agent, egressRequest),
    close: async () => agent.close(),
  }
}

function prepare(egressRequest: EgressRequest): { method: string; headers: Record<string, string> } {
  const method = egressRequest.method.toUpperCase()
  if (!methods.has(method)) refuse(`method ${egressRequest.method} is not supported; use ${[...methods].join(', ')}`)
  if (mentionsSecret.test(egressRequest.url))
    refuse('secrets may only appear in header values or the body, never in the URL')
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(egressRequest.headers ?? {})) {
    if (forbiddenHeaders.has(name.toLowerCase())) refuse(`header ${name} may not be set`)
    if (mentionsSecret.test(name)) refuse('secrets may not appear in header names')
    headers[name] = value
  }
  return { method, headers }
}

async function sendWithSecrets(
  deps: SecretEgressDeps,
  agent: Dispatcher,
  egressRequest: EgressRequest,
): Promise<EgressResponse> {
  let { method, headers } = prepare(egressRequest)
  const secrets = await resolveReferenced(deps, referencedNames(egressRequest))
  const known: KnownSecret[] = [...secrets].map(([name, secret]) => ({ name, value: secret.value }))
  let body = egressRequest.body
  let url = checkedUrl(egressRequest.url, deps.policy)
  const maxRedirects = deps.maxRedirects ?? 5
  for (let hop = 0; ; hop += 1) {
    assertBound(normalizeRequestHost(url.hostname), secrets)
    const response = await request(url, {
      method: method as Dispatcher.HttpMethod,
      headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, substitute(value, secrets)])),
      ...(body === undefined || method === 'GET' || method === 'HEAD' ? {} : { body: substitute(body, secrets) }),
      dispatcher: agent,
      signal: AbortSignal.timeout(deps.timeoutMs ?? 30_000),
    }).catch((error: unknown) =>
      refuse(
        `the call to ${url.host} failed: ${maskSecrets(error instanceof Error ? error.message : String(error), known)}`,
      ),
    )
    const location = response.headers.location
    if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
      await response.body.dump()
      if (hop >= maxRedirects) refuse(`more than ${maxRedirects} redirects`)
      url = checkedUrl(new URL(location, url).toString(), deps.policy)
      if (
        response.statusCode === 303 ||
        ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')
      ) {
        method = 'GET'
        body = undefined
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'))
      }
      continue
    }
    return readResponse(response, url, known, deps.maxResponseBytes ?? 256 * 1024)
  }
}

async function readResponse(
  response: Dispatcher.ResponseData,
  url: URL,
  known: readonly KnownSecret[],
  maxBytes: number,
): Promise<EgressResponse> {
  const chunks: Buffer[] = []
  let size = 0
  let truncated = false
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size))
      truncated = true
      break
    }
    chunks.push(chunk)
    size += chunk.length
  }
  if (truncated) response.body.destroy()
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = maskSecrets(Array.isArray(value) ? value.join(', ') : value, known)
  }
  return {
    status: response.statusCode,
    url: url.toString(),
    headers,
    body: maskSecrets(Buffer.concat(chunks).toString('utf8'), known),
    truncated,
  }
}
