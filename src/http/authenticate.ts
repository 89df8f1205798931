// The onRequest hook that enforces each route's `config.auth`: bearer token (or x-api-key, which the
// Anthropic SDK sends) -> SHA-256 -> in-memory key cache. Runs before the body is parsed, so a caller
// without a valid key learns nothing about the body rules.
import type { FastifyRequest } from 'fastify'
import { GatewayError } from '../domain/errors.ts'
import type { Clock } from '../domain/clock.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import { hashKeySecret } from '../identity/api-key-secret.ts'
import type { KeyCache } from '../identity/key-cache.ts'
import { isInternConfined } from '../identity/is-visible-to-key.ts'
import type { RouteAuth } from './route-auth.ts'

export interface AuthenticateDeps {
  readonly keyCache: KeyCache
  readonly clock: Clock
  /** Called for every authenticated request (batched last_used_at). */
  readonly onKeyUsed?: (hash: string) => void
}

export function createAuthenticateHook(deps: AuthenticateDeps) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    request.principal = null
    const auth: RouteAuth | undefined = request.routeOptions.config.auth
    if (auth === undefined || auth === 'none') return
    const token = readToken(request)
    if (token === null)
      throw new GatewayError('unauthorized', 'Missing Authentication header: send "Authorization: Bearer <API key>"')
    const key = await deps.keyCache.lookup(hashKeySecret(token))
    if (key === undefined) throw new GatewayError('unauthorized', 'Invalid API key: no key matches the bearer token')
    checkUsable(key, deps.clock)
    checkKind(key, auth)
    request.principal = { key }
    deps.onKeyUsed?.(key.hash)
  }
}

function readToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    if (match?.[1] !== undefined) return match[1]
  }
  const apiKey = request.headers['x-api-key']
  if (typeof apiKey === 'string' && apiKey.trim() !== '') return apiKey.trim()
  return null
}

function checkUsable(key: ApiKeyRecord, clock: Clock): void {
  if (key.disabled)
    throw new GatewayError(
      'unauthorized',
      'This API key is disabled; enable it with PATCH /api/v1/keys/{hash} or use another key',
    )
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= clock.now().getTime()) {
    throw new GatewayError('unauthorized', `This API key expired at ${key.expiresAt}`)
  }
}

function checkKind(key: ApiKeyRecord, auth: Exclude<RouteAuth, 'none'>): void {
  if (auth === 'management' && key.kind !== 'management') {
    throw new GatewayError('forbidden', 'Only management keys can perform this operation')
  }
  if (auth === 'inference' && key.kind === 'management') {
    throw new GatewayError(
      'forbidden',
      'Management keys cannot call inference routes; create an inference key with POST /api/v1/keys',
    )
  }
  if (auth === 'unconfined' && isInternConfined(key)) {
    throw new GatewayError('not_found', 'Resource not found: an intern key can only reach its own intern')
  }
  if (auth === 'workspace' && key.kind === 'management') {
    throw new GatewayError(
      'unauthorized',
      'Missing, unknown or management API key: this route takes a workspace API key',
    )
  }
}
