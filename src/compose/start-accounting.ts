// Accounting for the gateway: generation records (with their content retention sweep), the batched
// ledger writer, the organization's credit balance and the reserve / settle / release service.
import type { Logger } from 'pino'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import { createAccountingService, type AccountingService } from '../accounting/accounting-service.ts'
import { CreditBalance } from '../accounting/credit-balance.ts'
import { LedgerWriter } from '../accounting/ledger-writer.ts'
import { replayLedger } from '../accounting/replay-ledger.ts'
import { ContentRetention } from '../generations/content-retention.ts'
import { GenerationStore } from '../generations/generation-store.ts'
import type { Store } from '../store/open-store.ts'
import {
  createCreditGrantsRepository,
  type CreditGrantsRepository,
} from '../store/repositories/credit-grants-repository.ts'
import { createLedgerRepository } from '../store/repositories/ledger-repository.ts'
import type { Foundation } from './open-foundation.ts'
import type { Shutdown } from './shutdown-stack.ts'

export interface Accounting {
  readonly generations: GenerationStore
  readonly ledger: LedgerWriter
  readonly grants: CreditGrantsRepository
  readonly credits: CreditBalance
  readonly service: AccountingService
}

export interface AccountingInputs {
  readonly foundation: Foundation
  readonly config: Config
  readonly clock: Clock
  readonly logger: Logger
}

export async function startAccounting(inputs: AccountingInputs, shutdown: Shutdown): Promise<Accounting> {
  const { foundation, config, clock, logger } = inputs
  foundation.store.writes.rejectedRows.onRejected(({ table, row, reason }) =>
    logger.error(
      { table, row, reason },
      'the store refused a row: it was set aside, the rows batched with it are written',
    ),
  )
  const generations = startGenerations(foundation.store, config, clock, logger, shutdown)
  const ledger = await startLedger(foundation, logger, shutdown)
  const grants = createCreditGrantsRepository(foundation.store.db)
  const organizationId = foundation.bootstrap.organizationId
  const credits = new CreditBalance({ grants, organizationId, clock, bus: foundation.changeBus })
  const service = createAccountingService({
    counters: foundation.counters,
    clock,
    ledger,
    credits,
    enforceCredits: config.credits.enforce,
  })
  return { generations, ledger, grants, credits, service }
}

function startGenerations(
  store: Store,
  config: Config,
  clock: Clock,
  logger: Logger,
  shutdown: Shutdown,
): GenerationStore {
  const generations = new GenerationStore(store.db, store.writes, (error) =>
    logger.error({ err: error }, 'could not write generation records'),
  )
  generations.start()
  shutdown.defer('generation records', () => generations.stop())
  const retention = new ContentRetention(generations, clock, config.generations.content_retention_days, (error) =>
    logger.warn({ err: error }, 'generation content retention sweep failed'),
  )
  retention.start()
  shutdown.defer('content retention', () => retention.stop())
  return generations
}

async function startLedger(foundation: Foundation, logger: Logger, shutdown: Shutdown): Promise<LedgerWriter> {
  const repository = createLedgerRepository(foundation.store.db, foundation.store.writes)
  // Memory counters start empty: the ledger is where this process's earlier spend is remembered.
  if (foundation.countersEngine === 'memory') await replayLedger(repository, foundation.counters)
  const ledger = new LedgerWriter(repository, {
    onError: (error) => logger.error({ err: error }, 'could not write ledger rows; will retry'),
  })
  ledger.start()
  shutdown.defer('ledger writer', async () => {
    await ledger.close()
    if (ledger.pendingCount > 0)
      logger.error(
        { rows: ledger.pendingCount },
        'could not write ledger rows before shutdown: their spend is in the counters but missing from the ledger',
      )
  })
  return ledger
}
