// `switchyard ledger rebuild-counters [--reset] [--key-prefix <prefix>]`: replay every ledger row into the
// Redis spend counters (after Redis lost its data). Idempotent per row within the counters' retention.
// With --reset, the counters the ledger feeds are first deleted, which sets counters that are ahead of
// the ledger back to it; it refuses while a gateway holds reservations. Memory counters need no
// command: every start rebuilds them from the ledger.
import { parseArgs } from 'node:util'
import { openStore } from '../store/open-store.ts'
import { migrateToLatest } from '../store/migrate.ts'
import { createLedgerRepository } from '../store/repositories/ledger-repository.ts'
import { openSpendCounters } from '../accounting/open-spend-counters.ts'
import { replayLedger, type ReplayReport } from '../accounting/replay-ledger.ts'
import { resetLedgerCounters } from '../accounting/reset-ledger-counters.ts'
import { RedisSpendCounters } from '../counters/redis-spend-counters.ts'
import type { CommandContext } from './run-command.ts'

export async function ledgerRebuildCountersCommand(args: string[], context: CommandContext): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { 'key-prefix': { type: 'string' }, reset: { type: 'boolean' } },
    strict: true,
  })
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
    const ledger = createLedgerRepository(store.db, store.writes)
    if (values.reset !== true) {
      context.stdout.write(describeReplay(await replayLedger(ledger, spend.counters)))
      return 0
    }
    if (!(spend.counters instanceof RedisSpendCounters)) throw new Error('--reset needs the Redis spend counters')
    const outcome = await resetLedgerCounters(ledger, spend.counters)
    if (outcome.kind === 'busy') {
      context.stderr.write(
        `${outcome.held} reservations hold a lease: a gateway is serving. Stop every gateway (or wait for its leases to lapse) and run again\n`,
      )
      return 1
    }
    context.stdout.write(`reset ${outcome.scopes} counters; ${describeReplay(outcome)}`)
    return 0
  } finally {
    await spend.close()
    await store.close()
  }
}

function describeReplay(report: ReplayReport): string {
  return `replayed ${report.rows} ledger rows into the counters (${report.recorded} recorded, ${report.rows - report.recorded} already present)\n`
}
