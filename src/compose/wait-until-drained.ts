// What Gateway.drained() waits for, in the order one feeds the next: the observability records of the
// generations finished so far are queued, every cache has applied the changes announced so far, and the
// ledger rows and generation records accepted so far are committed.
import type { GatewayParts } from './gateway-parts.ts'

type DrainedParts = Pick<GatewayParts, 'observability' | 'identity' | 'caches' | 'inference' | 'accounting'>

/** Resolves once the gateway's accepted writes are durable and its changes have propagated; rejects when the store refused the commit. */
export async function waitUntilDrained(parts: DrainedParts): Promise<void> {
  await parts.observability.broadcaster.settled()
  const { caches } = parts
  await Promise.all([
    parts.identity.keyCache.settled(),
    caches.workspaces.settled(),
    caches.guardrails.settled(),
    caches.presets.settled(),
    caches.rateLimitRules.settled(),
    parts.inference.privateEndpoints.cache.settled(),
  ])
  const { commits } = parts.accounting
  await commits.flush()
  if (commits.pendingCount > 0)
    throw new Error(
      `${commits.pendingCount} ledger rows and generation records are still queued: the store did not accept their commit`,
    )
}
