// Vault rows and their secrets. Values arrive already sealed; this module never sees a plaintext.
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database } from '../database.ts'
import type { VaultSecretTable, VaultTable } from '../tables/vault-interns-tables.ts'

export type VaultRow = Selectable<VaultTable>
export type VaultSecretRow = Selectable<VaultSecretTable>
type Executor = Kysely<Database> | Transaction<Database>

export function createVaultsRepository(db: Kysely<Database>) {
  return {
    async findVault(id: string, executor: Executor = db): Promise<VaultRow | undefined> {
      return executor.selectFrom('vaults').selectAll().where('id', '=', id).executeTakeFirst()
    },

    async findVaultByOwner(owner: string, executor: Executor = db): Promise<VaultRow | undefined> {
      return executor.selectFrom('vaults').selectAll().where('owner', '=', owner).executeTakeFirst()
    },

    /** Inserts the vault unless its owner already has one; returns the owner's vault either way. */
    async ensureVault(row: VaultRow, executor: Executor = db): Promise<VaultRow> {
      await executor
        .insertInto('vaults')
        .values(row)
        .onConflict((conflict) => conflict.column('owner').doNothing())
        .execute()
      const stored = await this.findVaultByOwner(row.owner, executor)
      if (stored === undefined) throw new Error(`vault for ${row.owner} vanished after insert`)
      return stored
    },

    async listVaults(executor: Executor = db): Promise<VaultRow[]> {
      return executor.selectFrom('vaults').selectAll().orderBy('id').execute()
    },

    async updateVaultKeys(
      id: string,
      keys: Pick<VaultRow, 'data_key_sealed' | 'fingerprint_key_sealed'>,
      executor: Executor = db,
    ): Promise<void> {
      await executor.updateTable('vaults').set(keys).where('id', '=', id).execute()
    },

    async deleteVault(id: string, executor: Executor = db): Promise<void> {
      await executor.deleteFrom('vault_secrets').where('vault_id', '=', id).execute()
      await executor.deleteFrom('vaults').where('id', '=', id).execute()
    },

    /** Secrets of one vault ordered by name; asks for one row more than `limit` so callers know `has_more`. */
    async listSecrets(vaultId: string, offset: number, limit: number): Promise<VaultSecretRow[]> {
      return db
        .selectFrom('vault_secrets')
        .selectAll()
        .where('vault_id', '=', vaultId)
        .orderBy('name')
        .limit(limit)
        .offset(offset)
        .execute()
    },

    async listAllSecrets(vaultIds: readonly string[]): Promise<VaultSecretRow[]> {
      if (vaultIds.length === 0) return []
      return db
        .selectFrom('vault_secrets')
        .selectAll()
        .where('vault_id', 'in', [...vaultIds])
        .orderBy('name')
        .execute()
    },

    async findSecrets(vaultId: string, names: readonly string[], executor: Executor = db): Promise<VaultSecretRow[]> {
      if (names.length === 0) return []
      return executor
        .selectFrom('vault_secrets')
        .selectAll()
        .where('vault_id', '=', vaultId)
        .where('name', 'in', [...names])
        .execute()
    },

    async upsertSecret(row: VaultSecretRow, executor: Executor = db): Promise<void> {
      await executor
        .insertInto('vault_secrets')
        .values(row)
        .onConflict((conflict) =>
          conflict
            .columns(['vault_id', 'name'])
            .doUpdateSet({
              hosts: row.hosts,
              fingerprint: row.fingerprint,
              value_sealed: row.value_sealed,
              created_at: row.created_at,
            }),
        )
        .execute()
    },

    async deleteSecret(vaultId: string, name: string): Promise<boolean> {
      const result = await db
        .deleteFrom('vault_secrets')
        .where('vault_id', '=', vaultId)
        .where('name', '=', name)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    async transaction<T>(work: (transaction: Transaction<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work)
    },
  }
}

export type VaultsRepository = ReturnType<typeof createVaultsRepository>
