// Vault rows and their secrets. Values arrive already sealed; this module never sees a plaintext.
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database } from '../database.ts'
import type { VaultSecretTable, VaultTable } from '../tables/vault-interns-tables.ts'

export type VaultRow = Selectable<VaultTable>
export type VaultSecretRow = Selectable<VaultSecretTable>
type Executor = Kysely<Database> | Transaction<Database>

export function createVaultsRepository(db: Kysely<Database>) {
  return {
    findVault: (id: string, executor: Executor = db) => findVault(executor, id),
    findVaultByOwner: (owner: string, executor: Executor = db) => findVaultByOwner(executor, owner),
    ensureVault: (row: VaultRow, executor: Executor = db) => ensureVault(executor, row),
    listVaults: (executor: Executor = db) => listVaults(executor),
    updateVaultKeys: (
      id: string,
      keys: Pick<VaultRow, 'data_key_sealed' | 'fingerprint_key_sealed'>,
      executor: Executor = db,
    ) => updateVaultKeys(executor, id, keys),
    deleteVault: (id: string, executor: Executor = db) => deleteVault(executor, id),
    listSecrets: (vaultId: string, offset: number, limit: number) => listSecrets(db, vaultId, offset, limit),
    listAllSecrets: (vaultIds: readonly string[]) => listAllSecrets(db, vaultIds),
    findSecrets: (vaultId: string, names: readonly string[], executor: Executor = db) =>
      findSecrets(executor, vaultId, names),
    upsertSecret: (row: VaultSecretRow, executor: Executor = db) => upsertSecret(executor, row),
    deleteSecret: (vaultId: string, name: string) => deleteSecret(db, vaultId, name),
    transaction: <T>(work: (transaction: Transaction<Database>) => Promise<T>) => runTransaction(db, work),
  }
}

export type VaultsRepository = ReturnType<typeof createVaultsRepository>

async function findVault(executor: Executor, id: string): Promise<VaultRow | undefined> {
  return executor.selectFrom('vaults').selectAll().where('id', '=', id).executeTakeFirst()
}

async function findVaultByOwner(executor: Executor, owner: string): Promise<VaultRow | undefined> {
  return executor.selectFrom('vaults').selectAll().where('owner', '=', owner).executeTakeFirst()
}

/** Inserts the vault unless its owner already has one; returns the owner's vault either way. */
async function ensureVault(executor: Executor, row: VaultRow): Promise<VaultRow> {
  await executor
    .insertInto('vaults')
    .values(row)
    .onConflict((conflict) => conflict.column('owner').doNothing())
    .execute()
  const stored = await findVaultByOwner(executor, row.owner)
  if (stored === undefined) throw new Error(`vault for ${row.owner} vanished after insert`)
  return stored
}

async function listVaults(executor: Executor): Promise<VaultRow[]> {
  return executor.selectFrom('vaults').selectAll().orderBy('id').execute()
}

async function updateVaultKeys(
  executor: Executor,
  id: string,
  keys: Pick<VaultRow, 'data_key_sealed' | 'fingerprint_key_sealed'>,
): Promise<void> {
  await executor.updateTable('vaults').set(keys).where('id', '=', id).execute()
}

async function deleteVault(executor: Executor, id: string): Promise<void> {
  await executor.deleteFrom('vault_secrets').where('vault_id', '=', id).execute()
  await executor.deleteFrom('vaults').where('id', '=', id).execute()
}

/** Secrets of one vault ordered by name; asks for one row more than `limit` so callers know `has_more`. */
async function listSecrets(
  db: Kysely<Database>,
  vaultId: string,
  offset: number,
  limit: number,
): Promise<VaultSecretRow[]> {
  return db
    .selectFrom('vault_secrets')
    .selectAll()
    .where('vault_id', '=', vaultId)
    .orderBy('name')
    .limit(limit)
    .offset(offset)
    .execute()
}

async function listAllSecrets(db: Kysely<Database>, vaultIds: readonly string[]): Promise<VaultSecretRow[]> {
  if (vaultIds.length === 0) return []
  return db
    .selectFrom('vault_secrets')
    .selectAll()
    .where('vault_id', 'in', [...vaultIds])
    .orderBy('name')
    .execute()
}

async function findSecrets(executor: Executor, vaultId: string, names: readonly string[]): Promise<VaultSecretRow[]> {
  if (names.length === 0) return []
  return executor
    .selectFrom('vault_secrets')
    .selectAll()
    .where('vault_id', '=', vaultId)
    .where('name', 'in', [...names])
    .execute()
}

async function upsertSecret(executor: Executor, row: VaultSecretRow): Promise<void> {
  await executor
    .insertInto('vault_secrets')
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(['vault_id', 'name']).doUpdateSet({
        hosts: row.hosts,
        fingerprint: row.fingerprint,
        value_sealed: row.value_sealed,
        created_at: row.created_at,
      }),
    )
    .execute()
}

async function deleteSecret(db: Kysely<Database>, vaultId: string, name: string): Promise<boolean> {
  const result = await db
    .deleteFrom('vault_secrets')
    .where('vault_id', '=', vaultId)
    .where('name', '=', name)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

async function runTransaction<T>(
  db: Kysely<Database>,
  work: (transaction: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(work)
}
