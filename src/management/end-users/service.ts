// End-user registrations: register once, deactivate (soft, repeatable), reactivate. Registrations
// belong to the caller's organization; the tracking string is never changed or freed.
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { EndUserRow, EndUsersRepository } from '../../store/repositories/end-users-repository.ts'
import type { EndUser, ListEndUsersQuery } from './schema.ts'
import { isDotSegment, trackingIdProblem } from './tracking-id.ts'

export function toEndUser(row: EndUserRow): EndUser {
  return {
    user: row.tracking_id,
    is_active: row.is_active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

function requireValid(trackingId: string): void {
  const problem = trackingIdProblem(trackingId)
  if (problem !== null) throw new GatewayError('invalid_request', `Invalid end-user tracking ID: it ${problem}`)
}

/** Path routes cannot carry "." or "..": clients and proxies collapse them as dot segments. */
function requireAddressable(trackingId: string): void {
  requireValid(trackingId)
  if (isDotSegment(trackingId)) {
    throw new GatewayError(
      'invalid_request',
      `The tracking ID "${trackingId}" cannot be addressed by path; find it with GET /api/v1/end-users?user=${encodeURIComponent(trackingId)}&include_inactive=true`,
    )
  }
}

export function createEndUsersService(deps: { endUsers: EndUsersRepository; clock: Clock }) {
  async function findOrThrow(organizationId: string, trackingId: string): Promise<EndUserRow> {
    const row = await deps.endUsers.find(organizationId, trackingId)
    if (row === undefined)
      throw new GatewayError(
        'not_found',
        'No end user is registered with this tracking ID; register it with POST /api/v1/end-users',
      )
    return row
  }

  return {
    async register(organizationId: string, trackingId: string): Promise<EndUser> {
      requireValid(trackingId)
      const now = deps.clock.now().toISOString()
      const row: EndUserRow = {
        organization_id: organizationId,
        tracking_id: trackingId,
        is_active: 1,
        created_at: now,
        updated_at: now,
      }
      if (!(await deps.endUsers.insertIfAbsent(row))) {
        throw new GatewayError('conflict', 'This tracking ID is already registered')
      }
      return toEndUser(row)
    },

    async list(organizationId: string, query: ListEndUsersQuery): Promise<{ data: EndUser[]; total_count: number }> {
      const { rows, total } = await deps.endUsers.list({
        organizationId,
        ...(query.user === undefined ? {} : { trackingId: query.user }),
        includeInactive: query.include_inactive ?? false,
        offset: query.offset ?? 0,
        limit: query.limit ?? 50,
      })
      return { data: rows.map(toEndUser), total_count: total }
    },

    async get(organizationId: string, trackingId: string): Promise<EndUser> {
      requireAddressable(trackingId)
      return toEndUser(await findOrThrow(organizationId, trackingId))
    },

    async setActive(organizationId: string, trackingId: string, isActive: boolean): Promise<EndUser> {
      requireAddressable(trackingId)
      await findOrThrow(organizationId, trackingId)
      const row = await deps.endUsers.setActive(organizationId, trackingId, isActive, deps.clock.now().toISOString())
      if (row === undefined) throw new GatewayError('not_found', 'No end user is registered with this tracking ID')
      return toEndUser(row)
    },
  }
}

export type EndUsersService = ReturnType<typeof createEndUsersService>
