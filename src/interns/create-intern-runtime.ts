// Builds the intern runtime from the gateway's store, config and the intern and vault services.
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import type { ChangeBus } from '../events/change-bus.ts'
import type { InternAndVault } from '../management/interns/intern-and-vault.ts'
import type { Database } from '../store/database.ts'
import { createApiKeysRepository } from '../store/repositories/api-keys-repository.ts'
import { createInternsRepository } from '../store/repositories/interns-repository.ts'
import { createVaultsRepository } from '../store/repositories/vaults-repository.ts'
import { InternRuntime } from './intern-runtime.ts'

export interface CreateInternRuntimeDeps {
  readonly db: Kysely<Database>
  readonly config: Config
  readonly clock: Clock
  readonly changeBus: ChangeBus
  readonly internAndVault: InternAndVault
  readonly organizationId: string
  readonly logger: Logger
}

export function createInternRuntime(deps: CreateInternRuntimeDeps): InternRuntime {
  return new InternRuntime({
    interns: createInternsRepository(deps.db),
    vaults: createVaultsRepository(deps.db),
    apiKeys: createApiKeysRepository(deps.db),
    internService: deps.internAndVault.interns,
    vaultService: deps.internAndVault.vault,
    changeBus: deps.changeBus,
    clock: deps.clock,
    dataDir: deps.config.store.data_dir,
    organizationId: deps.organizationId,
    ...(deps.config.interns.domain === undefined ? {} : { domain: deps.config.interns.domain }),
    pollIntervalMs: 200,
    onError: (error, internId) => deps.logger.warn({ err: error, intern_id: internId }, 'intern runtime step failed'),
  })
}
