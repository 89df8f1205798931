// Guardrail assignment routes (api-reference §5.2): per guardrail and across every guardrail.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { OffsetLimitQuery, TotalCountList, offsetPage } from '../../http/pagination.ts'
import { GuardrailParams, KeyAssignment, KeyHashesBody, MemberAssignment, MemberUserIdsBody } from './schema.ts'
import type { AssignmentService } from './assignment-service.ts'

type Params = { id: string }
type PageQuery = { offset?: number; limit?: number }

export function registerGuardrailAssignmentRoutes(app: FastifyInstance, service: AssignmentService): void {
  const tags = ['guardrails']
  const config = { auth: 'management' as const }
  const keyList = { 200: TotalCountList(KeyAssignment) }
  const memberList = { 200: TotalCountList(MemberAssignment) }
  const assigned = { 200: Type.Object({ assigned_count: Type.Integer() }) }
  const unassigned = { 200: Type.Object({ unassigned_count: Type.Integer() }) }

  app.get(
    '/api/v1/guardrails/assignments/keys',
    {
      config,
      schema: { tags, summary: 'List every key assignment', querystring: OffsetLimitQuery, response: keyList },
    },
    async (request) => service.listKeyAssignments(offsetPage(request.query as PageQuery)),
  )

  app.get(
    '/api/v1/guardrails/assignments/members',
    {
      config,
      schema: { tags, summary: 'List every member assignment', querystring: OffsetLimitQuery, response: memberList },
    },
    async (request) => service.listMemberAssignments(offsetPage(request.query as PageQuery)),
  )

  app.get(
    '/api/v1/guardrails/:id/assignments/keys',
    {
      config,
      schema: {
        tags,
        summary: 'List the keys assigned to a guardrail',
        params: GuardrailParams,
        querystring: OffsetLimitQuery,
        response: keyList,
      },
    },
    async (request) =>
      service.listKeyAssignments({
        ...offsetPage(request.query as PageQuery),
        guardrailId: (request.params as Params).id,
      }),
  )

  app.post(
    '/api/v1/guardrails/:id/assignments/keys',
    {
      config,
      schema: {
        tags,
        summary: 'Assign keys to a guardrail',
        params: GuardrailParams,
        body: KeyHashesBody,
        response: assigned,
      },
    },
    async (request) =>
      service.assignKeys(
        (request.params as Params).id,
        (request.body as { key_hashes: string[] }).key_hashes,
        request.principal?.key.creatorUserId ?? null,
      ),
  )

  app.post(
    '/api/v1/guardrails/:id/assignments/keys/remove',
    {
      config,
      schema: {
        tags,
        summary: 'Unassign keys from a guardrail',
        params: GuardrailParams,
        body: KeyHashesBody,
        response: unassigned,
      },
    },
    async (request) =>
      service.unassignKeys((request.params as Params).id, (request.body as { key_hashes: string[] }).key_hashes),
  )

  app.get(
    '/api/v1/guardrails/:id/assignments/members',
    {
      config,
      schema: {
        tags,
        summary: 'List the members assigned to a guardrail',
        params: GuardrailParams,
        querystring: OffsetLimitQuery,
        response: memberList,
      },
    },
    async (request) =>
      service.listMemberAssignments({
        ...offsetPage(request.query as PageQuery),
        guardrailId: (request.params as Params).id,
      }),
  )

  app.post(
    '/api/v1/guardrails/:id/assignments/members',
    {
      config,
      schema: {
        tags,
        summary: 'Assign members to a guardrail',
        params: GuardrailParams,
        body: MemberUserIdsBody,
        response: assigned,
      },
    },
    async (request) =>
      service.assignMembers(
        (request.params as Params).id,
        (request.body as { member_user_ids: string[] }).member_user_ids,
        request.principal?.key.creatorUserId ?? null,
      ),
  )

  app.post(
    '/api/v1/guardrails/:id/assignments/members/remove',
    {
      config,
      schema: {
        tags,
        summary: 'Unassign members from a guardrail',
        params: GuardrailParams,
        body: MemberUserIdsBody,
        response: unassigned,
      },
    },
    async (request) =>
      service.unassignMembers(
        (request.params as Params).id,
        (request.body as { member_user_ids: string[] }).member_user_ids,
      ),
  )
}
