// `switchyard vault rotate-master-key`: re-wraps every vault key under SWITCHYARD_NEW_MASTER_KEY in one
// transaction, then says what to set next. Run it with the gateway stopped (or restart every instance
// right after): instances still holding the old master key cannot open vaults once it has run.
import { loadMasterKey } from '../vault/master-key.ts'
import { SecretBox } from '../vault/secret-box.ts'
import { rotateVaultKeys } from '../vault/rotate-vault-keys.ts'
import { openStore } from '../store/open-store.ts'
import { migrateToLatest } from '../store/migrate.ts'
import type { CommandContext } from './run-command.ts'

export async function vaultRotateMasterKeyCommand(_args: string[], context: CommandContext): Promise<number> {
  const encoded = context.env?.SWITCHYARD_NEW_MASTER_KEY
  const nextKey = encoded === undefined ? null : Buffer.from(encoded, 'base64')
  if (nextKey === null || nextKey.length !== 32) {
    context.stderr.write(
      'set SWITCHYARD_NEW_MASTER_KEY to a new 32-byte key in base64 (for example: openssl rand -base64 32)\n',
    )
    return 2
  }
  const current = loadMasterKey(context.config.secrets.master_key, context.config.store.data_dir)
  if (current.key.equals(nextKey)) {
    context.stderr.write('SWITCHYARD_NEW_MASTER_KEY equals the current master key; generate a new one\n')
    return 2
  }
  const store = openStore(context.config.store.database_url)
  try {
    await migrateToLatest(store)
    const count = await rotateVaultKeys(store.db, new SecretBox(current.key), new SecretBox(nextKey))
    const where =
      current.origin === 'environment'
        ? 'SWITCHYARD_MASTER_KEY'
        : `SWITCHYARD_MASTER_KEY (the old key in ${current.path} is no longer valid: delete that file)`
    context.stdout.write(
      `re-wrapped the keys of ${count} vault(s) under the new master key\nnext: set ${where} to the value of SWITCHYARD_NEW_MASTER_KEY on every instance, restart them, then unset SWITCHYARD_NEW_MASTER_KEY\n`,
    )
    return 0
  } catch (error) {
    context.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  } finally {
    await store.close()
  }
}
