// Composition of the intern and vault area: its services (built once from the store, the master-key
// SecretBox and config) and its routes, registered in one encapsulated scope whose errors carry
// `metadata.reason` and `metadata.retryable`.
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Config } from '../../config/config.ts'
import type { Clock } from '../../domain/clock.ts'
import type { ChangeBus } from '../../events/change-bus.ts'
import type { Database } from '../../store/database.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import type { SecretBox } from '../../vault/secret-box.ts'
import { createApiKeysRepository } from '../../store/repositories/api-keys-repository.ts'
import { createInternsRepository } from '../../store/repositories/interns-repository.ts'
import { createVaultsRepository } from '../../store/repositories/vaults-repository.ts'
import { createOrganizationsRepository } from '../../store/repositories/organizations-repository.ts'
import { createVaultService, type VaultService } from '../vault/service.ts'
import { registerVaultRoutes } from '../vault/routes.ts'
import { createAccessGuard, type AccessGuard } from './access-guard.ts'
import { addErrorReasons } from './error-reasons.ts'
import { mintInternKey, type MintInternKeyDeps } from './mint-intern-key.ts'
import { registerInternRoutes } from './routes.ts'
import { createInternService, type InternService } from './service.ts'
import { InternIdParams } from './schema.ts'

export interface InternAndVaultDeps {
  readonly db: Kysely<Database>
  readonly config: Config
  readonly clock: Clock
  readonly changeBus: ChangeBus
  /** The gateway's master-key box: wraps each vault's data and fingerprint keys. */
  readonly masterBox: SecretBox
  readonly listTimeoutMs?: number
}

export interface InternAndVault {
  readonly interns: InternService
  readonly vault: VaultService
  readonly guard: AccessGuard
  readonly mintKeyDeps: MintInternKeyDeps
  readonly bodyLimit: number
}

export function createInternAndVault(deps: InternAndVaultDeps): InternAndVault {
  const interns = createInternsRepository(deps.db)
  const vaults = createVaultsRepository(deps.db)
  const organizations = createOrganizationsRepository(deps.db)
  const guard = createAccessGuard({
    config: deps.config,
    findWorkspace: (idOrSlug) => organizations.findWorkspace(idOrSlug),
  })
  const timeout = deps.listTimeoutMs === undefined ? {} : { listTimeoutMs: deps.listTimeoutMs }
  const vault = createVaultService({ vaults, interns, masterBox: deps.masterBox, clock: deps.clock, ...timeout })
  const internService = createInternService({
    interns,
    vaults,
    vaultService: vault,
    clock: deps.clock,
    changeBus: deps.changeBus,
    ...timeout,
  })
  const mintKeyDeps = {
    interns,
    apiKeys: createApiKeysRepository(deps.db),
    changeBus: deps.changeBus,
    clock: deps.clock,
    isInProgramme: guard.isInProgramme,
  }
  return { interns: internService, vault, guard, mintKeyDeps, bodyLimit: deps.config.server.body_limit_bytes }
}

export function registerInternAndVaultRoutes(app: TypedApp, area: InternAndVault): void {
  app.register(async (scope) => {
    addErrorReasons(scope, area.bodyLimit)
    registerInternRoutes(scope, area.interns, area.guard)
    registerVaultRoutes(scope, area.vault, area.guard)
    registerMintInternKeyRoute(scope, area)
  })
}

function registerMintInternKeyRoute(app: TypedApp, area: InternAndVault): void {
  app.post(
    '/api/v1/interns/:internId/keys',
    {
      config: { auth: 'management' },
      preValidation: async (request) => area.guard.refuseRegional(request),
      schema: {
        tags: ['interns'],
        summary: 'Mint an API key confined to one intern (shown once)',
        params: InternIdParams,
        body: Type.Union([
          Type.Object(
            { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
            { additionalProperties: false },
          ),
          Type.Null(),
        ]),
      },
    },
    async (request, reply) => {
      const key = request.principal!.key
      const minted = await mintInternKey(area.mintKeyDeps, key, request.params.internId, request.body?.name)
      return reply.code(201).send(minted)
    },
  )
}
