// API key routes (api-reference §3): /keys needs a management key; GET /key takes any valid key.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { ApiKey, CreateKeyBody, CurrentKey, KeyHashParams, ListKeysQuery, UpdateKeyBody } from './schema.ts'
import type { KeysService } from './service.ts'

export function registerKeysRoutes(app: FastifyInstance, service: KeysService): void {
  const tags = ['api keys']
  const management = { auth: 'management' as const }
  const one = Type.Object({ data: ApiKey })

  app.post(
    '/api/v1/keys',
    {
      config: management,
      schema: {
        tags,
        summary: 'Create an inference API key',
        body: CreateKeyBody,
        response: { 201: Type.Object({ data: ApiKey, key: Type.String() }) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(request.body as CreateKeyBody)),
  )

  app.get(
    '/api/v1/keys',
    {
      config: management,
      schema: {
        tags,
        summary: 'List API keys (up to 100, newest first)',
        querystring: ListKeysQuery,
        response: { 200: Type.Object({ data: Type.Array(ApiKey) }) },
      },
    },
    async (request) => ({ data: await service.list(request.query as ListKeysQuery) }),
  )

  app.get(
    '/api/v1/keys/:hash',
    { config: management, schema: { tags, summary: 'Get an API key', params: KeyHashParams, response: { 200: one } } },
    async (request) => ({ data: await service.get((request.params as { hash: string }).hash) }),
  )

  app.patch(
    '/api/v1/keys/:hash',
    {
      config: management,
      schema: {
        tags,
        summary: 'Update an API key',
        params: KeyHashParams,
        body: UpdateKeyBody,
        response: { 200: one },
      },
    },
    async (request) => ({
      data: await service.update((request.params as { hash: string }).hash, request.body as UpdateKeyBody),
    }),
  )

  app.delete(
    '/api/v1/keys/:hash',
    {
      config: management,
      schema: {
        tags,
        summary: 'Delete an API key',
        params: KeyHashParams,
        response: { 200: Type.Object({ deleted: Type.Literal(true) }) },
      },
    },
    async (request) => service.delete((request.params as { hash: string }).hash),
  )

  app.get(
    '/api/v1/key',
    {
      config: { auth: 'any' },
      schema: { tags, summary: 'The calling key', response: { 200: Type.Object({ data: CurrentKey }) } },
    },
    async (request) => ({ data: await service.current(request.principal!.key) }),
  )
}
