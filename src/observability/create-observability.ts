// Assembles observability for the gateway: the management service behind the destination routes, the
// broadcaster inference calls (enqueueGeneration), direct delivery from memory and the outbox delivery
// worker. Both delivery paths share one set of exporters (and so their kept-alive connections).
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import type { Database } from '../store/database.ts'
import type { WriteBehind } from '../store/write-behind.ts'
import type { SecretBox } from '../vault/secret-box.ts'
import { createObservabilityDestinationsRepository } from '../store/repositories/observability-destinations-repository.ts'
import { createObservabilityOutboxRepository } from '../store/repositories/observability-outbox-repository.ts'
import { createObservabilityService, type ObservabilityService } from '../management/observability/service.ts'
import type { ChangeBus } from '../events/change-bus.ts'
import { DestinationCache } from './destination-cache.ts'
import { createGenerationBroadcaster, type GenerationBroadcaster } from './generation-broadcaster.ts'
import { DeliveryWorker } from './delivery-worker.ts'
import { DirectDelivery } from './direct-delivery.ts'
import { deliveryOptionsFrom } from './delivery-options.ts'
import { createExporters } from './exporters/exporter-registry.ts'

export interface Observability {
  readonly service: ObservabilityService
  readonly broadcaster: GenerationBroadcaster
  /** Starts the outbox worker. */
  start(): void
  /** Writes records still in memory to the outbox, waits for deliveries in flight, closes connections. */
  stop(): Promise<void>
  /** Outbox rows by status (pending, delivered, dead), for the depth metric. */
  outboxDepth(): Promise<Record<string, number>>
  /** Records held only in memory by direct delivery (0 when it is off). */
  recordsInMemory(): number
}

export function createObservability(deps: {
  db: Kysely<Database>
  writes: WriteBehind
  config: Config
  clock: Clock
  secretBox: SecretBox
  logger: Logger
  changeBus: ChangeBus
}): Observability {
  const destinations = createObservabilityDestinationsRepository(deps.db, deps.writes)
  const outbox = createObservabilityOutboxRepository(deps.db)
  const cache = new DestinationCache(destinations, deps.secretBox, deps.changeBus)
  const egress = { allowPrivateNetworks: deps.config.egress.allow_private_networks }
  const options = deliveryOptionsFrom(deps.config)
  const exporters = createExporters()
  const direct = options.direct
    ? new DirectDelivery({ outbox, destinations, exporters, clock: deps.clock, egress, logger: deps.logger, options })
    : undefined
  const worker = new DeliveryWorker({
    destinations,
    outbox,
    secretBox: deps.secretBox,
    clock: deps.clock,
    egress,
    logger: deps.logger,
    options,
    changeBus: deps.changeBus,
    exporters,
  })
  const workspaceExists = async (id: string): Promise<boolean> =>
    (await deps.db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
  const defaultWorkspaceId = async (): Promise<string> =>
    (
      await deps.db
        .selectFrom('workspaces')
        .select('id')
        .where('is_default', '=', 1)
        .orderBy('created_at')
        .executeTakeFirstOrThrow()
    ).id
  return {
    outboxDepth: () => outbox.countByStatus(),
    recordsInMemory: () => direct?.size ?? 0,
    service: createObservabilityService({
      destinations,
      secretBox: deps.secretBox,
      clock: deps.clock,
      egress,
      workspaceExists,
      defaultWorkspaceId,
      onChange: (id) => deps.changeBus.publish('observability_destination', id),
    }),
    broadcaster: createGenerationBroadcaster({
      destinations,
      outbox,
      secretBox: deps.secretBox,
      clock: deps.clock,
      logger: deps.logger,
      cache,
      ...(direct === undefined ? {} : { direct }),
    }),
    start: () => worker.start(),
    async stop() {
      await direct?.stop()
      await worker.stop()
    },
  }
}
