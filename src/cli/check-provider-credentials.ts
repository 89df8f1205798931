// One authenticated, free call per provider for `switchyard doctor`: GET the provider's model list (the
// route its provider descriptor names) with the headers inference would send (the adapter's request
// headers, the provider's own, and its static credential). 2xx proves the credential, 401/403 is a failure naming where to fix it, any other answer
// proves only that the URL is reachable. A provider that signs each request over its bytes or fetches
// an access token is checked for reachability only.
import type { ProviderEntry } from '../domain/catalog.ts'
import type { AuthorizerDeps } from '../providers/provider-adapter.ts'
import { adapterFor, providerDescriptor } from '../providers/registry.ts'
import { upstreamMessage } from '../inference/upstream/upstream-message.ts'

export interface CredentialCheck {
  readonly status: 'ok' | 'fail'
  readonly detail: string
}

export async function checkProviderCredentials(
  provider: ProviderEntry,
  credentialSource: string,
  timeoutMs: number,
): Promise<CredentialCheck> {
  const url = `${provider.baseUrl}${providerDescriptor(provider.api).listModelsPath(provider)}`
  const headers = credentialHeaders(provider)
  let response: Response
  try {
    response = await fetch(url, { headers: headers ?? {}, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' })
  } catch (error) {
    return { status: 'fail', detail: `GET ${url}: ${messageOf(error)}` }
  }
  const body = await response.text().catch(() => '')
  if (headers === null)
    return {
      status: 'ok',
      detail: `GET ${url} -> HTTP ${response.status}: reachable; credentials not verified (signed per request)`,
    }
  if (response.status === 401 || response.status === 403) {
    const why = upstreamMessage(body, provider.apiKey)
    const missing = provider.apiKey === null ? 'no API key is configured; ' : ''
    return {
      status: 'fail',
      detail: `GET ${url} -> HTTP ${response.status} (${why}): ${missing}the credentials were rejected; set ${credentialSource}`,
    }
  }
  if (response.ok) return { status: 'ok', detail: `GET ${url} -> HTTP ${response.status}: credentials accepted` }
  return {
    status: 'ok',
    detail: `GET ${url} -> HTTP ${response.status}: reachable; credentials not verified (no model list there)`,
  }
}

/** Doctor never signs or fetches tokens: an authorizer that needs to gets none of this I/O. */
const noAuthorizerIo: AuthorizerDeps = {
  now: Date.now,
  post: () => Promise.reject(new Error('doctor does not fetch access tokens')),
  readFile: () => Promise.reject(new Error('doctor does not read credential files')),
}

/** The headers an inference request would carry minus its content type; null when its credential is per request. */
function credentialHeaders(provider: ProviderEntry): Record<string, string> | null {
  const adapter = adapterFor(provider.api, 'doctor', provider)
  const authorizer = adapter.createAuthorizer(provider, noAuthorizerIo)
  if (authorizer.authorize !== undefined) return null
  const request = adapter.buildRequest({ model: 'doctor', messages: [], stream: false }, provider)
  const headers: Record<string, string> = { ...request.headers, ...provider.headers, ...authorizer.headers }
  delete headers['content-type']
  return headers
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : ''
  return `${error.message}${cause}`
}
