// A stored secret row -> its wire metadata. The sealed value never leaves the row.
import type { VaultSecretRow } from '../../store/repositories/vaults-repository.ts'
import type { VaultSecret } from './schema.ts'

export function toVaultSecret(row: VaultSecretRow): VaultSecret {
  return {
    name: row.name,
    hosts: row.hosts === null ? null : (JSON.parse(row.hosts) as string[]),
    fingerprint: row.fingerprint,
    created_at: row.created_at,
  }
}
