// Rate-limit rule routes: requests- and tokens-per-minute limits on a key or a workspace, for every model
// or one model, enforced on every inference call besides the YAML defaults (docs/keys-and-limits.md).
import { Type } from 'typebox'
import type { TypedApp } from '../../http/typed-app.ts'
import {
  CreateRateLimitRuleBody,
  ListRateLimitRulesQuery,
  RateLimitRuleObject,
  RateLimitRuleParams,
  UpdateRateLimitRuleBody,
} from './schema.ts'
import type { RateLimitRuleService } from './service.ts'

const tags = ['rate limits']
const config = { auth: 'management' as const }
const single = Type.Object({ data: RateLimitRuleObject })

export function registerRateLimitRoutes(app: TypedApp, service: RateLimitRuleService): void {
  app.get(
    '/api/v1/rate-limits',
    {
      config,
      schema: {
        tags,
        summary: 'List rate-limit rules (all, or of one key or workspace)',
        querystring: ListRateLimitRulesQuery,
        response: { 200: Type.Object({ data: Type.Array(RateLimitRuleObject) }) },
      },
    },
    async (request) => ({ data: await service.list(request.query) }),
  )
  app.post(
    '/api/v1/rate-limits',
    {
      config,
      schema: { tags, summary: 'Create a rate-limit rule', body: CreateRateLimitRuleBody, response: { 201: single } },
    },
    async (request, reply) => reply.code(201).send({ data: await service.create(request.body) }),
  )
  registerItemRoutes(app, service)
}

function registerItemRoutes(app: TypedApp, service: RateLimitRuleService): void {
  app.get(
    '/api/v1/rate-limits/:id',
    {
      config,
      schema: { tags, summary: 'Get a rate-limit rule', params: RateLimitRuleParams, response: { 200: single } },
    },
    async (request) => ({ data: await service.get(request.params.id) }),
  )
  app.patch(
    '/api/v1/rate-limits/:id',
    {
      config,
      schema: {
        tags,
        summary: "Change a rate-limit rule's limits (null lifts one; at least one stays)",
        params: RateLimitRuleParams,
        body: UpdateRateLimitRuleBody,
        response: { 200: single },
      },
    },
    async (request) => ({ data: await service.update(request.params.id, request.body) }),
  )
  app.delete(
    '/api/v1/rate-limits/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a rate-limit rule',
        params: RateLimitRuleParams,
        response: { 200: Type.Object({ deleted: Type.Literal(true) }) },
      },
    },
    async (request) => {
      await service.delete(request.params.id)
      return { deleted: true as const }
    },
  )
}
