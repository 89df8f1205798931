// Accounting for the gateway: the group commit of ledger rows and generation records (and what the
// inference paths await of it), generation records with their content retention sweep, the ledger
// writer, the organization's credit balance and the reserve / settle / release service.
import type { Logger } from 'pino'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import { createAccountingService, type AccountingService } from '../accounting/accounting-service.ts'
import { CreditBalance } from '../accounting/credit-balance.ts'
import { LedgerWriter } from '../accounting/ledger-writer.ts'
import { replayLedger } from '../accounting/replay-ledger.ts'
import { durableSettlements, type DurableSettlements } from '../accounting/durable-settlements.ts'
import { GroupCommit } from '../store/group-commit.ts'
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
  /** Commits ledger rows and generation records together; batch lines await it before storing a result. */
  readonly commits: GroupCommit
  /** What an answer awaits before its end leaves (nothing in write-behind mode). */
  readonly settlements: DurableSettlements
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
  const commits = startGroupCommit(foundation.store, logger, shutdown)
  const settlements = durableSettlements(commits, {
    isWriteBehind: config.durability.write_behind,
    onFailure: (error, generationId) =>
      logger.error(
        { err: error, generationId },
        'answered before its ledger row and generation record were committed: the store failed; they stay queued',
      ),
  })
  const generations = startGenerations(foundation.store, commits, config, clock, logger, shutdown)
  const ledger = await startLedger(foundation, commits)
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
  return { commits, settlements, generations, ledger, grants, credits, service }
}

/** Commits what is still queued at shutdown, after every part that settles has stopped. */
function startGroupCommit(store: Store, logger: Logger, shutdown: Shutdown): GroupCommit {
  const commits = new GroupCommit(store.writes, {
    onError: (error) => logger.error({ err: error }, 'could not commit ledger rows and generation records; will retry'),
  })
  commits.start()
  shutdown.defer('ledger rows and generation records', async () => {
    await commits.close()
    if (commits.pendingCount > 0)
      logger.error(
        { rows: commits.pendingCount },
        'could not write ledger rows and generation records before shutdown: their spend is in the counters but missing from the store',
      )
  })
  return commits
}

function startGenerations(
  store: Store,
  commits: GroupCommit,
  config: Config,
  clock: Clock,
  logger: Logger,
  shutdown: Shutdown,
): GenerationStore {
  const generations = new GenerationStore(store.db, commits)
  const retention = new ContentRetention(generations, clock, config.generations.content_retention_days, (error) =>
    logger.warn({ err: error }, 'generation content retention sweep failed'),
  )
  retention.start()
  shutdown.defer('content retention', () => retention.stop())
  return generations
}

async function startLedger(foundation: Foundation, commits: GroupCommit): Promise<LedgerWriter> {
  const repository = createLedgerRepository(foundation.store.db, foundation.store.writes)
  // Memory counters start empty: the ledger is where this process's earlier spend is remembered.
  if (foundation.countersEngine === 'memory') await replayLedger(repository, foundation.counters)
  return new LedgerWriter(repository, commits)
}
