// Assembles observability for the gateway: the management service behind the destination routes, the
// broadcaster inference calls (enqueueGeneration), direct delivery from memory and the outbox delivery
// worker. Both delivery paths share one set of exporters (and so their kept-alive connections).
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import type { Database } from '../store/database.ts'
import type { GroupCommit } from '../store/group-commit.ts'
import type { SecretBox } from '../vault/secret-box.ts'
import {
  createObservabilityDestinationsRepository,
  deliveredCountsPlan,
} from '../store/repositories/observability-destinations-repository.ts'
import { createObservabilityOutboxRepository } from '../store/repositories/observability-outbox-repository.ts'
import { createObservabilityService, type ObservabilityService } from '../management/observability/service.ts'
import type { ChangeBus } from '../events/change-bus.ts'
import type { EgressPolicy } from '../http/egress-policy.ts'
import { DestinationCache } from './destination-cache.ts'
import { createGenerationBroadcaster, type GenerationBroadcaster } from './generation-broadcaster.ts'
import { DeliveryWorker } from './delivery-worker.ts'
import { DirectDelivery } from './direct-delivery.ts'
import { DeliveredCounts } from './delivered-counts.ts'
import { deliveryOptionsFrom } from './delivery-options.ts'
import { createExporters } from './exporters/exporter-registry.ts'
import { sendTestEvent } from './send-test-event.ts'

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

export interface ObservabilityDeps {
  readonly db: Kysely<Database>
  /** Commits the delivered counts of direct delivery with the records' transactions; closed after `stop`. */
  readonly commits: GroupCommit
  readonly config: Config
  readonly clock: Clock
  readonly secretBox: SecretBox
  readonly logger: Logger
  readonly changeBus: ChangeBus
  readonly egress: EgressPolicy
}

export function createObservability(deps: ObservabilityDeps): Observability {
  const destinations = createObservabilityDestinationsRepository(deps.db)
  const outbox = createObservabilityOutboxRepository(deps.db)
  const { clock, egress, logger, secretBox, changeBus } = deps
  const cache = new DestinationCache(destinations, secretBox, changeBus)
  const options = deliveryOptionsFrom(deps.config)
  const exporters = createExporters()
  const direct = options.direct
    ? new DirectDelivery({
        outbox,
        destinations,
        deliveredCounts: new DeliveredCounts(deps.commits.queue(deliveredCountsPlan(deps.db))),
        exporters,
        clock,
        egress,
        logger,
        options,
      })
    : undefined
  const worker = new DeliveryWorker({
    destinations,
    outbox,
    secretBox,
    clock,
    egress,
    logger,
    options,
    changeBus,
    exporters,
  })
  return {
    outboxDepth: () => outbox.countByStatus(),
    recordsInMemory: () => direct?.size ?? 0,
    service: createObservabilityService({
      destinations,
      secretBox,
      clock,
      egress,
      ...workspaceLookups(deps.db),
      sendTestEvent: (destination) =>
        sendTestEvent(destination, { exporters, egress, clock, timeoutMs: options.requestTimeoutMs }),
      onChange: (id) => changeBus.publish('observability_destination', id),
    }),
    broadcaster: createGenerationBroadcaster({
      destinations,
      outbox,
      secretBox,
      clock,
      logger,
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

/** Destinations name workspaces; these answer the service's questions about them from the store. */
function workspaceLookups(db: Kysely<Database>): {
  workspaceExists(id: string): Promise<boolean>
  defaultWorkspaceId(): Promise<string>
} {
  return {
    workspaceExists: async (id) =>
      (await db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,
    defaultWorkspaceId: async () =>
      (
        await db
          .selectFrom('workspaces')
          .select('id')
          .where('is_default', '=', 1)
          .orderBy('created_at')
          .executeTakeFirstOrThrow()
      ).id,
  }
}
