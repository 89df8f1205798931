// Test fixture (no test runner inside): a real store plus an accounting service over given counters,
// so the accounting suites run the same code as the gateway. Used by *.test.ts only.
import { openStore, type Store } from '../store/open-store.ts'
import { migrateToLatest } from '../store/migrate.ts'
import { bootstrapIdentity, type BootstrapResult } from '../identity/bootstrap-identity.ts'
import { createApiKeysRepository } from '../store/repositories/api-keys-repository.ts'
import { createLedgerRepository, type LedgerRepository } from '../store/repositories/ledger-repository.ts'
import {
  createCreditGrantsRepository,
  type CreditGrantsRepository,
} from '../store/repositories/credit-grants-repository.ts'
import { generateKeySecret, hashKeySecret, labelKeySecret } from '../identity/api-key-secret.ts'
import { ChangeBus } from '../events/change-bus.ts'
import type { Clock } from '../domain/clock.ts'
import type { ApiKeyRecord, LimitReset } from '../domain/identity.ts'
import type { SpendCounters } from '../counters/spend-counters.ts'
import { GroupCommit } from '../store/group-commit.ts'
import { LedgerWriter } from './ledger-writer.ts'
import { CreditBalance } from './credit-balance.ts'
import { createAccountingService, type AccountingService } from './accounting-service.ts'

export interface AccountingFixture {
  readonly store: Store
  readonly bootstrap: BootstrapResult
  readonly ledgerRepository: LedgerRepository
  readonly grants: CreditGrantsRepository
  readonly ledger: LedgerWriter
  readonly credits: CreditBalance
  readonly service: AccountingService
  createKey(settings?: {
    limitUsd?: string | null
    limitReset?: LimitReset | null
    includeByokInLimit?: boolean
  }): Promise<ApiKeyRecord>
  close(): Promise<void>
}

export async function createAccountingFixture(options: {
  databaseUrl: string
  counters: SpendCounters
  clock: Clock
  enforceCredits?: boolean
}): Promise<AccountingFixture> {
  const store = openStore(options.databaseUrl)
  await migrateToLatest(store)
  const bootstrap = await bootstrapIdentity(store, options.clock, null)
  const ledgerRepository = createLedgerRepository(store.db, store.writes)
  const grants = createCreditGrantsRepository(store.db)
  const errors: unknown[] = []
  const commits = new GroupCommit(store.writes, { onError: (error) => errors.push(error) })
  const ledger = new LedgerWriter(ledgerRepository, commits)
  const credits = new CreditBalance({
    grants,
    organizationId: bootstrap.organizationId,
    clock: options.clock,
    bus: new ChangeBus(),
    maxAgeMs: 0,
  })
  const service = createAccountingService({
    counters: options.counters,
    clock: options.clock,
    ledger,
    credits,
    enforceCredits: options.enforceCredits ?? false,
  })
  const apiKeys = createApiKeysRepository(store.db)
  return {
    store,
    bootstrap,
    ledgerRepository,
    grants,
    ledger,
    credits,
    service,
    createKey: async (settings = {}) => {
      const plaintext = generateKeySecret()
      return apiKeys.insert({
        hash: hashKeySecret(plaintext),
        kind: 'inference',
        name: 'accounting test key',
        label: labelKeySecret(plaintext),
        organizationId: bootstrap.organizationId,
        workspaceId: bootstrap.defaultWorkspaceId,
        limitUsd: settings.limitUsd ?? null,
        limitReset: settings.limitReset ?? null,
        includeByokInLimit: settings.includeByokInLimit ?? false,
        createdAt: options.clock.now().toISOString(),
      })
    },
    close: async () => {
      await commits.close()
      await store.close()
      if (errors.length > 0) throw new AggregateError(errors, 'ledger writes failed')
    },
  }
}
