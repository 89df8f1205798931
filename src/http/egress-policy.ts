// The one egress policy for outbound calls that users can aim (webhooks, destinations, web_fetch,
// private endpoints): only http(s), and no loopback, private, link-local or otherwise internal
// address unless the operator sets `egress.allow_private_networks`. Host names are resolved and every
// address they resolve to is checked, so a public name pointing at 127.0.0.1 is refused too.
import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'
import { GatewayError } from '../domain/errors.ts'

export interface EgressPolicy {
  readonly allowPrivateNetworks: boolean
}

const internalRanges: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
]

/** Built once: an export to a named host checks every address the name resolves to. */
const internalAddresses = ((): BlockList => {
  const list = new BlockList()
  for (const [network, prefix, family] of internalRanges) list.addSubnet(network, prefix, family)
  return list
})()

/** True when the literal IP address is loopback, private, link-local, multicast or reserved. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
    if (mapped?.[1] !== undefined) return internalAddresses.check(mapped[1], 'ipv4')
    return internalAddresses.check(address, 'ipv6')
  }
  return internalAddresses.check(address, 'ipv4')
}

/** Why a URL may not be called, or null when the scheme and literal host pass (no DNS lookup). */
export function egressProblem(url: string, policy: EgressPolicy): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `"${url}" is not a valid URL`
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `scheme ${parsed.protocol.replace(':', '')} is not allowed; use http or https`
  if (parsed.username !== '' || parsed.password !== '') return 'credentials in the URL are not allowed; use headers'
  if (policy.allowPrivateNetworks) return null
  const host = parsed.hostname.replace(/^\[|\]$/g, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return `host ${host} is a loopback address`
  if (isInternalAddress(host)) return `host ${host} is a private, loopback or link-local address`
  return null
}

/**
 * Checks scheme and every resolved address of the host. Throws GatewayError('invalid_request') with the
 * reason; returns the parsed URL when the call may go out.
 */
export async function assertEgressAllowed(url: string, policy: EgressPolicy): Promise<URL> {
  const problem = egressProblem(url, policy)
  if (problem !== null) throw new GatewayError('invalid_request', `Outbound URL refused: ${problem}`)
  const parsed = new URL(url)
  const host = parsed.hostname.replace(/^\[|\]$/g, '')
  if (policy.allowPrivateNetworks || isIP(host) !== 0) return parsed
  const addresses = await lookup(host, { all: true }).catch(() => [])
  const internal = addresses.find((entry) => isInternalAddress(entry.address))
  if (internal !== undefined) {
    throw new GatewayError(
      'invalid_request',
      `Outbound URL refused: host ${host} resolves to internal address ${internal.address}`,
    )
  }
  return parsed
}
