// Host binding rules for vault secrets: each host is a bare DNS name or IPv4 address, lowercased, with a
// trailing dot removed; schemes, ports, paths, wildcards and empty values are refused (400 naming the
// host); duplicates after normalisation collapse, keeping first-seen order. Matching is exact elsewhere.
import { GatewayError } from '../domain/errors.ts'

export const maxHosts = 100
export const maxHostLength = 254

const labelPattern = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/

/** Why a host is refused, or null when it is acceptable (after lowercasing and trailing-dot removal). */
function problemWith(host: string): string | null {
  if (host === '') return 'is empty'
  if (host.includes('://')) return 'has a scheme: send the bare host name, e.g. "api.example.com"'
  if (host.includes('*')) return 'is a wildcard: bind each exact host name instead'
  if (host.includes('/') || host.includes('?') || host.includes('#')) return 'has a path: send the bare host name only'
  if (host.includes(':')) return 'has a port or scheme: send the bare host name without ":<port>"'
  if (host.includes('@')) return 'has user information: send the bare host name only'
  if (/\s/.test(host)) return 'contains whitespace'
  if (host.length > 253) return 'is longer than 253 characters after normalisation'
  const labels = host.split('.')
  if (labels.some((label) => !labelPattern.test(label))) {
    return 'is not a valid host name: use letters, digits, hyphens and dots, each label 1 to 63 characters'
  }
  return null
}

export function normalizeHosts(hosts: readonly string[]): string[] {
  if (hosts.length < 1 || hosts.length > maxHosts) {
    throw new GatewayError('invalid_request', `hosts must list 1 to ${maxHosts} host names; got ${hosts.length}`, {
      metadata: { reason: 'invalid_body', retryable: false },
    })
  }
  const normalized: string[] = []
  for (const [index, raw] of hosts.entries()) {
    if (raw.length > maxHostLength) {
      throw new GatewayError('invalid_request', `hosts[${index}] is longer than ${maxHostLength} characters`, {
        metadata: { reason: 'invalid_body', retryable: false },
      })
    }
    const host = raw.toLowerCase().replace(/\.$/, '')
    const problem = problemWith(host)
    if (problem !== null) {
      throw new GatewayError('invalid_request', `hosts[${index}] "${raw}" ${problem}`, {
        metadata: { reason: 'invalid_body', retryable: false },
      })
    }
    if (!normalized.includes(host)) normalized.push(host)
  }
  return normalized
}
