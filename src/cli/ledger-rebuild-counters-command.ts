// `switchyard ledger rebuild-counters [--key-prefix <prefix>]`: replay every ledger row into the Redis
// spend counters (after Redis lost its data). Idempotent per row within the counters' retention.
// Memory counters need no command: every start rebuilds them from the ledger.
import { parseArgs } from 'node:util'
import { openStore } from '../store/open-store.ts'
import { migrateToLatest } from '../store/migrate.ts'
import { createLedgerRepository } from '../store/repositories/ledger-repository.ts'
import { openSpendCounters } from '../accounting/open-spend-counters.ts'
import { replayLedger } from '../accounting/replay-ledger.ts'
import type { CommandContext } from './run-command.ts'

export async function ledgerRebuildCountersCommand(args: string[], context: CommandContext): Promise<number> {
  const { values } = parseArgs({ args, options: { 'key-prefix': { type: 'string' } }, strict: true })
  if (context.config.store.redis_url === null) {
    context.stdout.write(
      'REDIS_URL is not set: spend counters are in memory and are rebuilt from the ledger at every start; nothing to do\n',
    )
    return 0
  }
  const prefix = values['key-prefix']
  const store = openStore(context.config.store.database_url)
  const spend = openSpendCounters(context.config, context.clock, prefix === undefined ? {} : { redisKeyPrefix: prefix })
  try {
    await migrateToLatest(store)
    const report = await replayLedger(createLedgerRepository(store.db, store.writes), spend.counters)
    context.stdout.write(
      `replayed ${report.rows} ledger rows into the counters (${report.recorded} recorded, ${report.rows - report.recorded} already present)\n`,
    )
    return 0
  } finally {
    await spend.close()
    await store.close()
  }
}
