// Every workspace has a default guardrail whose id is derived from the workspace id, so the id can be
// shown before the guardrail row exists (it is materialized on first write).
import { createHash } from 'node:crypto'

/** A stable UUID (version 5 layout) computed from a namespace and a name. */
export function deterministicUuid(namespace: string, name: string): string {
  const bytes = createHash('sha256').update(`${namespace}\u0000${name}`).digest().subarray(0, 16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x50
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export function defaultGuardrailId(workspaceId: string): string {
  return deterministicUuid('switchyard:workspace-default-guardrail', workspaceId)
}
