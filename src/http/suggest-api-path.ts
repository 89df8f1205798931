// A hint for a request that missed the /api/v1 base path: clients configured with the OpenAI or Anthropic
// base URL habit call /v1/chat/completions, /chat/completions or (the Anthropic SDK given .../api/v1)
// /api/v1/v1/messages. The 404 says where the API is and, when the corrected path exists, names it.

/** First path segments of the OpenAI and Anthropic APIs, as a client without `/api/v1` in its base URL sends them. */
const apiRoots = new Set(['chat', 'completions', 'responses', 'embeddings', 'messages', 'models'])

const apiBasePath = '/api/v1'

/**
 * The hint for `path`, or null when the path does not look like a misplaced API call.
 * `hasRoute` says whether a corrected path is served (by any method).
 */
export function suggestApiPath(path: string, hasRoute: (path: string) => boolean): string | null {
  const corrected = correctedPath(path)
  if (corrected === null) return null
  const where = `Switchyard serves the API under ${apiBasePath}`
  if (!hasRoute(corrected.path)) {
    return `${where}: set the client's base URL to http://<host>:<port>${apiBasePath} (OpenAI and OpenRouter SDKs) or http://<host>:<port>/api (Anthropic SDK)`
  }
  return `${where}: did you mean ${corrected.path}?${corrected.note}`
}

function correctedPath(path: string): { path: string; note: string } | null {
  const doubled = `${apiBasePath}/v1/`
  if (path.startsWith(doubled)) {
    const note = ' The Anthropic SDK adds /v1 itself: give it the base URL http://<host>:<port>/api'
    return { path: `${apiBasePath}/${path.slice(doubled.length)}`, note }
  }
  if (path.startsWith('/v1/')) return { path: `${apiBasePath}/${path.slice('/v1/'.length)}`, note: '' }
  const root = path.split('/')[1] ?? ''
  if (apiRoots.has(root)) return { path: `${apiBasePath}${path}`, note: '' }
  return null
}
