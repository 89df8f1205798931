// Assembles private endpoints for the gateway: the routing cache (loaded now, refreshed by
// 'private_endpoint' change events) and the management service whose validations run real checks
// through the provider adapters and the upstream transport.
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { Clock } from '../domain/clock.ts'
import type { ChangeBus } from '../events/change-bus.ts'
import type { EgressPolicy } from '../http/egress-policy.ts'
import type { Database } from '../store/database.ts'
import type { SecretBox } from '../vault/secret-box.ts'
import type { Catalog } from '../domain/catalog.ts'
import type { UpstreamTransport } from '../inference/upstream/upstream-transport.ts'
import { PrivateEndpointCache } from '../inference/catalog/private-endpoint-cache.ts'
import { toPrivateEndpointEntry } from '../inference/catalog/private-endpoint-entry.ts'
import { runEndpointChecks } from '../inference/private-endpoints/run-endpoint-checks.ts'
import { providerDescriptor } from '../providers/registry.ts'
import { createPrivateEndpointsRepository } from '../store/repositories/private-endpoints-repository.ts'
import { createPrivateEndpointService, type PrivateEndpointService } from '../management/private-endpoints/service.ts'

export const defaultValidationTimeoutMs = 60_000

export interface PrivateEndpointsDeps {
  readonly db: Kysely<Database>
  readonly clock: Clock
  readonly logger: Logger
  readonly changeBus: ChangeBus
  readonly secretBox: SecretBox
  readonly egress: EgressPolicy
  readonly catalog: Catalog
  readonly transport: UpstreamTransport
  readonly organizationId: string
  readonly validationTimeoutMs?: number
}

export interface PrivateEndpoints {
  readonly cache: PrivateEndpointCache
  readonly service: PrivateEndpointService
}

export async function createPrivateEndpoints(deps: PrivateEndpointsDeps): Promise<PrivateEndpoints> {
  const repository = createPrivateEndpointsRepository(deps.db)
  const cache = new PrivateEndpointCache({
    repository,
    secretBox: deps.secretBox,
    bus: deps.changeBus,
    onError: (error, endpointId) =>
      deps.logger.error({ err: error, endpointId }, 'could not load a private endpoint for routing'),
  })
  await cache.load()
  const timeoutMs = deps.validationTimeoutMs ?? defaultValidationTimeoutMs
  const service = createPrivateEndpointService({
    repository,
    clock: deps.clock,
    secretBox: deps.secretBox,
    changeBus: deps.changeBus,
    egress: deps.egress,
    organizationId: deps.organizationId,
    describeModel: (slug) => deps.catalog.model(slug),
    describeProvider: (slug) => deps.catalog.provider(slug),
    familyName: (api) => providerDescriptor(api).familyName,
    resolveWorkspace: async (idOrSlug) =>
      (
        await deps.db
          .selectFrom('workspaces')
          .select('id')
          .where((builder) => builder.or([builder('id', '=', idOrSlug), builder('slug', '=', idOrSlug)]))
          .executeTakeFirst()
      )?.id,
    checkEndpoint: (record, apiKey) =>
      runEndpointChecks(toPrivateEndpointEntry(record, apiKey, timeoutMs), { transport: deps.transport, timeoutMs }),
    changesApplied: () => cache.settled(),
  })
  return { cache, service }
}
