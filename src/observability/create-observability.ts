// Assembles observability for the gateway: the management service behind the destination routes, the
// broadcaster inference calls (enqueueGeneration) and the outbox delivery worker.
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import type { Database } from '../store/database.ts'
import type { SecretBox } from '../vault/secret-box.ts'
import { createObservabilityDestinationsRepository } from '../store/repositories/observability-destinations-repository.ts'
import { createObservabilityOutboxRepository } from '../store/repositories/observability-outbox-repository.ts'
import { createObservabilityService, type ObservabilityService } from '../management/observability/service.ts'
import type { ChangeBus } from '../events/change-bus.ts'
import { DestinationCache } from './destination-cache.ts'
import { createGenerationBroadcaster, type GenerationBroadcaster } from './generation-broadcaster.ts'
import { DeliveryWorker, defaultDeliveryOptions, type DeliveryOptions } from './delivery-worker.ts'

export interface Observability {
  readonly service: ObservabilityService
  readonly broadcaster: GenerationBroadcaster
  readonly worker: DeliveryWorker
  /** Outbox rows by status (pending, delivered, dead), for the depth metric. */
  outboxDepth(): Promise<Record<string, number>>
}

export function deliveryOptionsFrom(config: Config): DeliveryOptions {
  const given = config.observability.delivery
  return {
    pollIntervalMs: given.poll_interval_ms ?? defaultDeliveryOptions.pollIntervalMs,
    maxAttempts: given.max_attempts ?? defaultDeliveryOptions.maxAttempts,
    backoffBaseMs: given.backoff_base_ms ?? defaultDeliveryOptions.backoffBaseMs,
    backoffMaxMs: given.backoff_max_ms ?? defaultDeliveryOptions.backoffMaxMs,
    concurrencyPerDestination: given.concurrency_per_destination ?? defaultDeliveryOptions.concurrencyPerDestination,
    leaseMs: given.lease_ms ?? defaultDeliveryOptions.leaseMs,
    requestTimeoutMs: given.request_timeout_ms ?? defaultDeliveryOptions.requestTimeoutMs,
    batchSize: given.batch_size ?? defaultDeliveryOptions.batchSize,
  }
}

export function createObservability(deps: { db: Kysely<Database>; config: Config; clock: Clock; secretBox: SecretBox; logger: Logger; changeBus: ChangeBus }): Observability {
  const destinations = createObservabilityDestinationsRepository(deps.db)
  const outbox = createObservabilityOutboxRepository(deps.db)
  const cache = new DestinationCache(destinations, deps.secretBox, deps.changeBus)
  const egress = { allowPrivateNetworks: deps.config.egress.allow_private_networks }
  const workspaceExists = async (id: string): Promise<boolean> =>
    (await deps.db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
  const defaultWorkspaceId = async (): Promise<string> =>
    (await deps.db.selectFrom('workspaces').select('id').where('is_default', '=', 1).orderBy('created_at').executeTakeFirstOrThrow()).id
  return {
    outboxDepth: () => outbox.countByStatus(),
    service: createObservabilityService({
      destinations, secretBox: deps.secretBox, clock: deps.clock, egress, workspaceExists, defaultWorkspaceId,
      onChange: (id) => deps.changeBus.publish('observability_destination', id),
    }),
    broadcaster: createGenerationBroadcaster({ destinations, outbox, secretBox: deps.secretBox, clock: deps.clock, logger: deps.logger, cache }),
    worker: new DeliveryWorker({ destinations, outbox, secretBox: deps.secretBox, clock: deps.clock, egress, logger: deps.logger, options: deliveryOptionsFrom(deps.config), changeBus: deps.changeBus }),
  }
}
