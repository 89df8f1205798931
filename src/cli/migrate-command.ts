// `switchyard migrate`: apply pending migrations and report them.
import { openStore } from '../store/open-store.ts'
import { migrateToLatest } from '../store/migrate.ts'
import type { CommandContext } from './run-command.ts'

export async function migrateCommand(_args: string[], context: CommandContext): Promise<number> {
  const store = openStore(context.config.store.database_url)
  try {
    const { applied } = await migrateToLatest(store)
    context.stdout.write(applied.length === 0 ? 'store is up to date\n' : `applied: ${applied.join(', ')}\n`)
    return 0
  } finally {
    await store.close()
  }
}
