// Identity for the gateway: the one api-keys repository, the key cache that authenticates requests
// (refreshed by 'api_key' change events) and the recorder of keys' last use.
import type { Logger } from 'pino'
import type { Clock } from '../domain/clock.ts'
import type { ChangeBus } from '../events/change-bus.ts'
import { KeyCache } from '../identity/key-cache.ts'
import { LastUsedRecorder } from '../identity/last-used-recorder.ts'
import type { Store } from '../store/open-store.ts'
import { createApiKeysRepository, type ApiKeysRepository } from '../store/repositories/api-keys-repository.ts'
import type { Shutdown } from './shutdown-stack.ts'

export interface Identity {
  readonly apiKeys: ApiKeysRepository
  readonly keyCache: KeyCache
  readonly lastUsed: LastUsedRecorder
}

export async function startIdentity(
  inputs: { readonly store: Store; readonly clock: Clock; readonly changeBus: ChangeBus; readonly logger: Logger },
  shutdown: Shutdown,
): Promise<Identity> {
  const apiKeys = createApiKeysRepository(inputs.store.db)
  const keyCache = new KeyCache(apiKeys, inputs.clock, inputs.changeBus)
  await keyCache.load()
  const lastUsed = new LastUsedRecorder(apiKeys, inputs.clock, (error) =>
    inputs.logger.warn({ err: error }, 'could not record key last_used_at'),
  )
  lastUsed.start()
  shutdown.defer('last-used recorder', () => lastUsed.stop())
  return { apiKeys, keyCache, lastUsed }
}
