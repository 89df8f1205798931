// One authenticated, free call per provider for `switchyard doctor`: GET the provider's model list with
// the credential and headers inference would send (the adapter builds them). 2xx proves the credential,
// 401/403 is a failure naming where to fix it, any other answer proves only that the URL is reachable.
import type { ProviderEntry } from '../domain/catalog.ts'
import type { ProviderApi } from '../domain/inference/provider-api.ts'
import { providerAdapters } from '../providers/registry.ts'
import { upstreamMessage } from '../inference/upstream/upstream-message.ts'

export interface CredentialCheck {
  readonly status: 'ok' | 'fail'
  readonly detail: string
}

/** The list-models route of each API, relative to the provider's base_url; listing is free everywhere. */
const listModelsPaths: Readonly<Record<ProviderApi, string>> = {
  'openai-chat': '/models',
  'openai-responses': '/models',
  anthropic: '/v1/models',
  gemini: '/v1beta/models',
}

export async function checkProviderCredentials(
  provider: ProviderEntry,
  credentialSource: string,
  timeoutMs: number,
): Promise<CredentialCheck> {
  const url = `${provider.baseUrl}${listModelsPaths[provider.api]}`
  let response: Response
  try {
    response = await fetch(url, {
      headers: credentialHeaders(provider),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    })
  } catch (error) {
    return { status: 'fail', detail: `GET ${url}: ${messageOf(error)}` }
  }
  const body = await response.text().catch(() => '')
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
    detail: `GET ${url} -> HTTP ${response.status}: reachable, credentials not verified (the model list is not served there)`,
  }
}

/** The headers an inference request would carry, minus its body's content type. */
function credentialHeaders(provider: ProviderEntry): Record<string, string> {
  const request = providerAdapters[provider.api].buildRequest(
    { model: 'doctor', messages: [], stream: false },
    provider.apiKey === null ? {} : { apiKey: provider.apiKey },
  )
  const headers: Record<string, string> = { ...request.headers, ...provider.headers }
  delete headers['content-type']
  return headers
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : ''
  return `${error.message}${cause}`
}
