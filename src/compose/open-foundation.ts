// The gateway's foundation: the store (migrated), the spend counters, rate limiter and response cache store, the first-start
// identity, the master-key box and the in-process change bus. Every other area is built on these.
import type { Logger } from 'pino'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import type { SpendCounters } from '../counters/spend-counters.ts'
import { openSpendCounters } from '../accounting/open-spend-counters.ts'
import { ChangeBus } from '../events/change-bus.ts'
import { bootstrapIdentity, type BootstrapResult } from '../identity/bootstrap-identity.ts'
import { openRateLimiter } from '../rate-limits/open-rate-limiter.ts'
import type { RateLimiter } from '../rate-limits/rate-limiter.ts'
import { migrateToLatest } from '../store/migrate.ts'
import { openStore, type Store } from '../store/open-store.ts'
import { loadMasterKey } from '../vault/master-key.ts'
import { SecretBox } from '../vault/secret-box.ts'
import type { Shutdown } from './shutdown-stack.ts'
import { openResponseCacheStore } from '../response-cache/open-response-cache-store.ts'
import type { ResponseCacheStore } from '../response-cache/response-cache-store.ts'
import { probeRedis } from './probe-redis.ts'

export interface Foundation {
  readonly store: Store
  readonly counters: SpendCounters
  readonly countersEngine: 'memory' | 'redis'
  readonly rateLimiter: RateLimiter
  /** Where cached answers live: memory, or Redis shared by every instance. */
  readonly responseCacheStore: ResponseCacheStore
  readonly bootstrap: BootstrapResult
  /** Seals secrets at rest under the master key (vault data keys, destination and provider credentials). */
  readonly secretBox: SecretBox
  readonly changeBus: ChangeBus
}

export interface FoundationInputs {
  readonly config: Config
  readonly clock: Clock
  readonly logger: Logger
  /** Redis key prefix of the counters and rate limits (tests isolate instances sharing one Redis with it). */
  readonly redisKeyPrefix: string | undefined
}

export async function openFoundation(inputs: FoundationInputs, shutdown: Shutdown): Promise<Foundation> {
  const { config, clock } = inputs
  const prefix = inputs.redisKeyPrefix === undefined ? {} : { redisKeyPrefix: inputs.redisKeyPrefix }
  // Before any client that would wait for Redis forever: a Redis that is not there stops the start.
  if (config.store.redis_url !== null) await probeRedis(config.store.redis_url)
  const store = openStore(config.store.database_url)
  shutdown.defer('store', () => store.close())
  const spend = openSpendCounters(config, clock, prefix)
  shutdown.defer('spend counters', () => spend.close())
  const rate = await openRateLimiter(config, clock, prefix)
  shutdown.defer('rate limiter', () => rate.close())
  const responseCacheStore = openResponseCacheStore(config, clock, prefix)
  shutdown.defer('response cache', () => responseCacheStore.close())
  await migrateToLatest(store)
  const bootstrap = await bootstrapIdentity(store, clock, config.secrets.admin_key)
  return {
    store,
    counters: spend.counters,
    countersEngine: spend.engine,
    rateLimiter: rate.limiter,
    responseCacheStore,
    bootstrap,
    secretBox: openSecretBox(config, inputs.logger),
    changeBus: new ChangeBus(),
  }
}

function openSecretBox(config: Config, logger: Logger): SecretBox {
  const masterKey = loadMasterKey(config.secrets.master_key, config.store.data_dir)
  if (masterKey.origin === 'generated') {
    logger.warn(
      { path: masterKey.path },
      'SWITCHYARD_MASTER_KEY is not set: generated a master key into the data directory; set SWITCHYARD_MASTER_KEY when running several instances',
    )
  }
  return new SecretBox(masterKey.key)
}
