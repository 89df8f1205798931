// One entry per name, the winner being the intern's own vault, then the borrowed (attached) vault, then
// the workspace vault; ordered by name.
import type { VaultSecretRow } from '../../store/repositories/vaults-repository.ts'
import type { EffectiveSecret } from './schema.ts'
import { toVaultSecret } from './to-vault-secret.ts'

type Scope = EffectiveSecret['scope']

const precedence: Readonly<Record<Scope, number>> = { intern: 0, attached: 1, workspace: 2 }

export function resolveEffectiveSecrets(
  rows: readonly VaultSecretRow[],
  vaultIds: { intern: string; attached: string | null; workspace: string },
): EffectiveSecret[] {
  const scopeOf = (vaultId: string): Scope | null =>
    vaultId === vaultIds.intern
      ? 'intern'
      : vaultId === vaultIds.attached
        ? 'attached'
        : vaultId === vaultIds.workspace
          ? 'workspace'
          : null
  const winners = new Map<string, EffectiveSecret>()
  for (const row of rows) {
    const scope = scopeOf(row.vault_id)
    if (scope === null) continue
    const current = winners.get(row.name)
    if (current === undefined || precedence[scope] < precedence[current.scope])
      winners.set(row.name, { ...toVaultSecret(row), scope })
  }
  return [...winners.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}
