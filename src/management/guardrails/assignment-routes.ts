// Guardrail assignment routes (api-reference §5.2): per guardrail and across every guardrail.
import { Type } from 'typebox'
import { OffsetLimitQuery, TotalCountList, offsetPage } from '../../http/pagination.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import { GuardrailParams, KeyAssignment, KeyHashesBody, MemberAssignment, MemberUserIdsBody } from './schema.ts'
import type { AssignmentService } from './assignment-service.ts'

const tags = ['guardrails']
const config = { auth: 'management' as const }
const keyList = { 200: TotalCountList(KeyAssignment) }
const memberList = { 200: TotalCountList(MemberAssignment) }
const assigned = { 200: Type.Object({ assigned_count: Type.Integer() }) }
const unassigned = { 200: Type.Object({ unassigned_count: Type.Integer() }) }

export function registerGuardrailAssignmentRoutes(app: TypedApp, service: AssignmentService): void {
  app.get(
    '/api/v1/guardrails/assignments/keys',
    {
      config,
      schema: { tags, summary: 'List every key assignment', querystring: OffsetLimitQuery, response: keyList },
    },
    async (request) => service.listKeyAssignments(offsetPage(request.query)),
  )

  app.get(
    '/api/v1/guardrails/assignments/members',
    {
      config,
      schema: { tags, summary: 'List every member assignment', querystring: OffsetLimitQuery, response: memberList },
    },
    async (request) => service.listMemberAssignments(offsetPage(request.query)),
  )

  registerKeyAssignmentRoutes(app, service)
  registerMemberAssignmentRoutes(app, service)
}

function registerKeyAssignmentRoutes(app: TypedApp, service: AssignmentService): void {
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
    async (request) => service.listKeyAssignments({ ...offsetPage(request.query), guardrailId: request.params.id }),
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
      service.assignKeys(request.params.id, request.body.key_hashes, request.principal?.key.creatorUserId ?? null),
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
    async (request) => service.unassignKeys(request.params.id, request.body.key_hashes),
  )
}

function registerMemberAssignmentRoutes(app: TypedApp, service: AssignmentService): void {
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
    async (request) => service.listMemberAssignments({ ...offsetPage(request.query), guardrailId: request.params.id }),
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
        request.params.id,
        request.body.member_user_ids,
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
    async (request) => service.unassignMembers(request.params.id, request.body.member_user_ids),
  )
}
