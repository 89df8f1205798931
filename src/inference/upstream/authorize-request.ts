// Turns an adapter-built request into the bytes and headers to send: the body is serialized once, the
// provider's configured headers are merged, and the provider's authorizer adds its credentials (a
// static key with no await; a signature over the final bytes, or a cached access token). One
// authorizer per provider entry, kept as long as the entry (token caches live in it).
import { readFile } from 'node:fs/promises'
import { request } from 'undici'
import type { ProviderEntry } from '../../domain/catalog.ts'
import type { Authorizer, AuthorizerDeps, ProviderAdapter, UpstreamRequest } from '../../providers/provider-adapter.ts'
import { AttemptError } from './attempt-error.ts'

export interface PreparedRequest {
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

const authorizers = new WeakMap<ProviderEntry, Authorizer>()

const authorizerDeps: AuthorizerDeps = {
  now: Date.now,
  post: async (url, headers, body) => {
    const answer = await request(url, { method: 'POST', headers, body, headersTimeout: 30_000, bodyTimeout: 30_000 })
    return { status: answer.statusCode, body: await answer.body.text() }
  },
  readFile: (path) => readFile(path, 'utf8'),
}

export async function authorizeRequest(
  provider: ProviderEntry,
  adapter: ProviderAdapter,
  upstream: UpstreamRequest,
): Promise<PreparedRequest> {
  const body = JSON.stringify(upstream.body)
  const authorizer = authorizerOf(provider, adapter)
  if (authorizer.authorize === undefined) {
    const headers = Object.assign({}, upstream.headers, provider.headers, authorizer.headers)
    return { path: upstream.path, headers, body }
  }
  const headers = Object.assign({}, upstream.headers, provider.headers)
  let credentials: Readonly<Record<string, string>>
  try {
    credentials = await authorizer.authorize({ url: new URL(provider.baseUrl + upstream.path), headers, body })
  } catch (error) {
    throw new AttemptError(
      'upstream_error',
      `Provider ${provider.slug}: could not obtain credentials (${(error as Error).message})`,
      null,
      undefined,
      error,
    )
  }
  return { path: upstream.path, headers: Object.assign(headers, credentials), body }
}

function authorizerOf(provider: ProviderEntry, adapter: ProviderAdapter): Authorizer {
  let authorizer = authorizers.get(provider)
  if (authorizer === undefined) {
    authorizer = adapter.createAuthorizer(provider, authorizerDeps)
    authorizers.set(provider, authorizer)
  }
  return authorizer
}
