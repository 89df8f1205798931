// Organization members: the users of this deployment. The owner created at first start is an admin.
import { randomUUID } from 'node:crypto'
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { OrganizationsRepository, UserRow } from '../../store/repositories/organizations-repository.ts'
import type { CreateMemberBody, OrganizationMember } from './schema.ts'

export function toOrganizationMember(user: UserRow): OrganizationMember {
  const [first, ...rest] = (user.name ?? '').split(' ').filter((part) => part !== '')
  return {
    id: user.id,
    user_id: user.id,
    email: user.email,
    name: user.name,
    first_name: first ?? null,
    last_name: rest.length > 0 ? rest.join(' ') : null,
    role: user.role === 'member' ? 'org:member' : 'org:admin',
    created_at: user.created_at,
  }
}

export function createOrganizationService(deps: {
  organizations: OrganizationsRepository
  clock: Clock
  organizationId: string
}) {
  return {
    async listMembers(offset: number, limit: number): Promise<{ data: OrganizationMember[]; total_count: number }> {
      const { rows, total } = await deps.organizations.listUsers(deps.organizationId, offset, limit)
      return { data: rows.map(toOrganizationMember), total_count: total }
    },

    async addMember(body: CreateMemberBody): Promise<OrganizationMember> {
      const email = body.email.toLowerCase()
      if ((await deps.organizations.findUserByEmail(email)) !== undefined) {
        throw new GatewayError('conflict', `A member with email ${email} already exists`)
      }
      const user: UserRow = {
        id: randomUUID(),
        organization_id: deps.organizationId,
        email,
        name: body.name ?? null,
        role: body.role ?? 'member',
        created_at: deps.clock.now().toISOString(),
      }
      await deps.organizations.insertUser(user)
      return toOrganizationMember(user)
    },
  }
}

export type OrganizationService = ReturnType<typeof createOrganizationService>
