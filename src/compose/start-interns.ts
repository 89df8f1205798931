// The interns area: the intern and vault services, the runtime that provisions and runs interns, and
// what chat with a running intern needs (its model calls and server tools go through the one
// inference core, as the intern's key).
import type { Logger } from 'pino'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import type { Catalog } from '../domain/catalog.ts'
import type { EgressPolicy } from '../http/egress-policy.ts'
import type { KeyCache } from '../identity/key-cache.ts'
import { ChatSessions } from '../interns/chat-sessions.ts'
import type { InternChatDeps } from '../interns/intern-chat-routes.ts'
import { InternRuntime } from '../interns/intern-runtime.ts'
import { internServerTools } from '../interns/intern-server-tools.ts'
import { createInternAndVault, type InternAndVault } from '../management/interns/intern-and-vault.ts'
import type { ApiKeysRepository } from '../store/repositories/api-keys-repository.ts'
import { createInternsRepository } from '../store/repositories/interns-repository.ts'
import { createVaultsRepository } from '../store/repositories/vaults-repository.ts'
import type { Foundation } from './open-foundation.ts'
import type { Inference } from './start-inference.ts'
import type { Shutdown } from './shutdown-stack.ts'

export interface Interns {
  readonly area: InternAndVault
  readonly runtime: InternRuntime
  readonly chat: InternChatDeps
}

export interface InternsInputs {
  readonly foundation: Foundation
  readonly apiKeys: ApiKeysRepository
  readonly keyCache: KeyCache
  readonly inference: Inference
  readonly catalog: Catalog
  readonly egress: EgressPolicy
  readonly config: Config
  readonly clock: Clock
  readonly logger: Logger
}

/** Builds the area; the runtime's stop is registered now so that it stops after the HTTP app has closed. */
export function createInterns(inputs: InternsInputs, shutdown: Shutdown): Interns {
  const { foundation, config, clock } = inputs
  const { store, changeBus } = foundation
  const area = createInternAndVault({ db: store.db, config, clock, changeBus, masterBox: foundation.secretBox })
  const runtime = new InternRuntime({
    interns: createInternsRepository(store.db),
    vaults: createVaultsRepository(store.db),
    apiKeys: inputs.apiKeys,
    internService: area.interns,
    vaultService: area.vault,
    changeBus,
    clock,
    dataDir: config.store.data_dir,
    organizationId: foundation.bootstrap.organizationId,
    ...(config.interns.domain === undefined ? {} : { domain: config.interns.domain }),
    // Changes made through the API reach the runtime on the change bus at once; the poll is a safety net.
    pollIntervalMs: 2000,
    onError: (error, internId) => inputs.logger.warn({ err: error, intern_id: internId }, 'intern runtime step failed'),
  })
  shutdown.defer('intern runtime', () => runtime.stop())
  return { area, runtime, chat: internChat(inputs, area, runtime) }
}

function internChat(inputs: InternsInputs, area: InternAndVault, runtime: InternRuntime): InternChatDeps {
  const { config, clock, catalog, egress } = inputs
  const { invoke } = inputs.inference
  return {
    runtime,
    area,
    sessions: new ChatSessions(),
    config,
    invoke: (key, body) => invoke({ key, dialect: 'openai-chat', body }),
    currentKey: (hash) => inputs.keyCache.lookup(hash),
    serverTools: (key, model, mode, signal) =>
      internServerTools(
        {
          clock,
          key,
          model,
          catalog,
          signal,
          settings: config.server_tools,
          egress,
          invoke: (input) => invoke({ ...input, key }),
        },
        mode,
      ),
  }
}
