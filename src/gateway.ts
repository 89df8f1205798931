// Assembles a running gateway from a Config: store, migrations, identity bootstrap, caches, services
// and the HTTP app. main.ts and the end-to-end tests both start here, so tests run what users run.
import pino, { type Logger } from 'pino'
import type { Config } from './config/config.ts'
import type { Clock } from './domain/clock.ts'
import { openStore, type Store } from './store/open-store.ts'
import { migrateToLatest } from './store/migrate.ts'
import { bootstrapIdentity, type BootstrapResult } from './identity/bootstrap-identity.ts'
import { createApiKeysRepository } from './store/repositories/api-keys-repository.ts'
import { createOrganizationsRepository } from './store/repositories/organizations-repository.ts'
import { KeyCache } from './identity/key-cache.ts'
import { LastUsedRecorder } from './identity/last-used-recorder.ts'
import { ChangeBus } from './events/change-bus.ts'
import { createHttpMetrics } from './http/metrics.ts'
import { buildApp, type App } from './app.ts'
import { createOrganizationService } from './management/organization/service.ts'
import { loadMasterKey } from './vault/master-key.ts'
import { SecretBox } from './vault/secret-box.ts'
import { createObservability } from './observability/create-observability.ts'
import type { GenerationBroadcaster } from './observability/generation-broadcaster.ts'

export interface Gateway {
  readonly app: App
  readonly store: Store
  readonly bootstrap: BootstrapResult
  readonly logger: Logger
  readonly changeBus: ChangeBus
  /** Seals secrets at rest under the master key (vault data keys, destination and provider credentials). */
  readonly secretBox: SecretBox
  /** Inference calls `observability.enqueueGeneration(trace)` once per finished generation (never throws). */
  readonly observability: GenerationBroadcaster
  /** Stops accepting requests, lets in-flight ones finish, flushes batched writes, closes the store. */
  close(): Promise<void>
}

export interface GatewayOptions {
  readonly config: Config
  readonly clock: Clock
  readonly logger?: Logger
}

export function createLogger(config: Config): Logger {
  return pino({
    level: config.log_level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', '*.api_key', '*.apiKey', '*.secret', '*.password', '*.value'],
      censor: '[redacted]',
    },
  })
}

export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const { config, clock } = options
  const logger = options.logger ?? createLogger(config)
  const store = openStore(config.store.database_url)
  try {
    await migrateToLatest(store)
    const bootstrap = await bootstrapIdentity(store, clock, config.secrets.admin_key)
    const changeBus = new ChangeBus()
    const masterKey = loadMasterKey(config.secrets.master_key, config.store.data_dir)
    if (masterKey.origin === 'generated') {
      logger.warn({ path: masterKey.path }, 'SWITCHYARD_MASTER_KEY is not set: generated a master key into the data directory; set SWITCHYARD_MASTER_KEY when running several instances')
    }
    const secretBox = new SecretBox(masterKey.key)
    const apiKeys = createApiKeysRepository(store.db)
    const keyCache = new KeyCache(apiKeys, clock, changeBus)
    await keyCache.load()
    const lastUsed = new LastUsedRecorder(apiKeys, clock, (error) => logger.warn({ err: error }, 'could not record key last_used_at'))
    lastUsed.start()
    const organizations = createOrganizationsRepository(store.db)
    const observability = createObservability({ db: store.db, config, clock, secretBox, logger })
    const app = await buildApp({
      config,
      logger,
      clock,
      keyCache,
      metrics: createHttpMetrics(),
      ping: () => store.ping(),
      onKeyUsed: (hash) => lastUsed.mark(hash),
      services: {
        organization: createOrganizationService({ organizations, clock, organizationId: bootstrap.organizationId }),
        observability: observability.service,
      },
    })
    observability.worker.start()
    const close = async (): Promise<void> => {
      await app.fastify.close()
      await lastUsed.stop()
      await observability.worker.stop()
      await store.close()
    }
    return { app, store, bootstrap, logger, changeBus, secretBox, observability: observability.broadcaster, close }
  } catch (error) {
    await store.close()
    throw error
  }
}
