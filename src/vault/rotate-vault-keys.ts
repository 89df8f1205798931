// Re-wraps every vault's data and fingerprint keys from one master key to another in one transaction:
// either every vault opens under the new key afterwards, or nothing changed. Values are not touched
// (they are sealed by the per-vault data keys, which stay the same).
import type { Kysely } from 'kysely'
import type { Database } from '../store/database.ts'
import { createVaultsRepository } from '../store/repositories/vaults-repository.ts'
import type { SecretBox } from './secret-box.ts'
import { unwrapVaultKeys, wrapVaultKeys } from './vault-keys.ts'

export async function rotateVaultKeys(
  db: Kysely<Database>,
  currentBox: SecretBox,
  nextBox: SecretBox,
): Promise<number> {
  const vaults = createVaultsRepository(db)
  return vaults.transaction(async (transaction) => {
    const rows = await vaults.listVaults(transaction)
    for (const vault of rows) {
      let keys
      try {
        keys = unwrapVaultKeys(currentBox, vault.id, vault)
      } catch (error) {
        throw new Error(`the current master key does not open the keys of vault ${vault.id}; nothing was changed`, {
          cause: error,
        })
      }
      await vaults.updateVaultKeys(vault.id, wrapVaultKeys(nextBox, vault.id, keys), transaction)
    }
    return rows.length
  })
}
