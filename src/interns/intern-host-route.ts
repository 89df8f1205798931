// An intern's chat endpoint is also reachable at its hostname (`<name>.<interns domain>`): a request
// whose Host is a running intern's hostname and whose path is a chat-completions path is routed to
// POST /api/v1/interns/{id}/chat/completions. Everything else keeps its URL.

const chatPaths = new Set(['/chat/completions', '/v1/chat/completions', '/api/v1/chat/completions'])

export function normalizeHost(header: string | undefined): string {
  return (header ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '')
}

export function rewriteInternHostUrl(
  url: string,
  host: string | undefined,
  internIdForHost: (hostname: string) => string | undefined,
): string {
  // The path first: it rules out almost every request without normalizing the Host header.
  const queryAt = url.indexOf('?')
  const path = queryAt < 0 ? url : url.slice(0, queryAt)
  if (!chatPaths.has(path.replace(/\/+$/, ''))) return url
  const internId = internIdForHost(normalizeHost(host))
  if (internId === undefined) return url
  return `/api/v1/interns/${encodeURIComponent(internId)}/chat/completions${queryAt < 0 ? '' : url.slice(queryAt)}`
}
