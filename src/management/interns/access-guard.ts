// The access rules every intern and vault route shares, checked before the body is validated so a
// caller without access learns nothing about the rules:
//   1. regional hostnames (config.server.regional_hostnames) are refused with 403;
//   2. workspaces outside the Intern API programme (config.interns.workspaces, ids or slugs, "*") get 404;
//   3. an intern's own key is confined to its intern: the collection, workspace vault routes and other
//      interns answer 404; lifecycle changes to its own intern answer 403;
//   4. vault writes answer 503 while config.vault.writes_disabled is true.
import type { FastifyRequest } from 'fastify'
import type { Config } from '../../config/config.ts'
import { GatewayError } from '../../domain/errors.ts'
import { callerOf } from './caller.ts'

/** Which part of the surface a route belongs to, for rule 3. */
export type AccessScope = 'collection' | 'workspace-vault' | 'intern-read' | 'intern-vault' | 'intern-lifecycle'

export interface AccessRule {
  readonly scope: AccessScope
  readonly vaultWrite?: boolean
}

export interface AccessGuardDeps {
  readonly config: Config
  readonly findWorkspace: (idOrSlug: string) => Promise<{ id: string; slug: string } | undefined>
}

export function requestHostname(hostHeader: string | undefined): string {
  const host = (hostHeader ?? '').trim().toLowerCase()
  const bare = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '')
  return bare.replace(/\.$/, '')
}

export function createAccessGuard(deps: AccessGuardDeps) {
  const { config } = deps
  const regional = new Set(config.server.regional_hostnames.map((host) => host.toLowerCase().replace(/\.$/, '')))
  const programme = config.interns.workspaces

  async function isInProgramme(workspaceId: string): Promise<boolean> {
    if (programme.includes('*') || programme.includes(workspaceId)) return true
    const workspace = await deps.findWorkspace(workspaceId)
    return workspace !== undefined && programme.includes(workspace.slug)
  }

  function refuseRegional(request: FastifyRequest): void {
    const hostname = requestHostname(request.headers.host)
    if (regional.has(hostname)) {
      throw new GatewayError(
        'forbidden',
        `Intern and vault routes are not served on the regional hostname ${hostname}; call the global hostname instead`,
        {
          metadata: { reason: 'regional_hostname', retryable: false },
        },
      )
    }
  }

  async function check(request: FastifyRequest, rule: AccessRule): Promise<void> {
    refuseRegional(request)
    const caller = callerOf(request)
    if (!(await isInProgramme(caller.workspaceId))) {
      throw new GatewayError('not_found', 'Resource not found: this workspace is not in the Intern API programme')
    }
    if (caller.isInternKey) confineInternKey(rule.scope, caller.internId, internIdIn(request.params))
    if (rule.vaultWrite === true && config.vault.writes_disabled) {
      throw new GatewayError(
        'unavailable',
        'Vault writes are disabled on this deployment (vault.writes_disabled); try again later',
      )
    }
  }

  return {
    isInProgramme,
    refuseRegional,
    /** A preValidation hook enforcing the rules for one route. */
    hook: (rule: AccessRule) => async (request: FastifyRequest) => check(request, rule),
  }
}

/**
 * The intern a route is about. One hook guards routes with different path schemas, and it runs before
 * validation, so the params are read as whatever arrived: a route under one intern names it, others do not.
 */
function internIdIn(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null || !('internId' in params)) return undefined
  return typeof params.internId === 'string' ? params.internId : undefined
}

function confineInternKey(scope: AccessScope, ownInternId: string | null, internId: string | undefined): void {
  const own = ownInternId !== null && internId === ownInternId
  if (scope === 'collection' || scope === 'workspace-vault' || !own) {
    throw new GatewayError('not_found', 'Resource not found: an intern key can only reach its own intern')
  }
  if (scope === 'intern-lifecycle') {
    throw new GatewayError('forbidden', "An intern's own key cannot change the intern; use a workspace API key")
  }
}

export type AccessGuard = ReturnType<typeof createAccessGuard>
