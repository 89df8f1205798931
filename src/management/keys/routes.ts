// API key routes (api-reference §3): /keys needs a management key; GET /key takes any valid key.
import { Type } from 'typebox'
import type { TypedApp } from '../../http/typed-app.ts'
import { ApiKey, CreateKeyBody, CurrentKey, KeyHashParams, ListKeysQuery, UpdateKeyBody } from './schema.ts'
import type { KeysService } from './service.ts'

const tags = ['api keys']
const management = { auth: 'management' as const }
const one = Type.Object({ data: ApiKey })

export function registerKeysRoutes(app: TypedApp, service: KeysService): void {
  registerKeyListRoutes(app, service)
  registerKeyItemRoutes(app, service)
  app.get(
    '/api/v1/key',
    {
      config: { auth: 'any' },
      schema: { tags, summary: 'The calling key', response: { 200: Type.Object({ data: CurrentKey }) } },
    },
    async (request) => ({ data: await service.current(request.principal!.key) }),
  )
}

function registerKeyListRoutes(app: TypedApp, service: KeysService): void {
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
    async (request, reply) => reply.code(201).send(await service.create(request.body)),
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
    async (request) => ({ data: await service.list(request.query) }),
  )
}

function registerKeyItemRoutes(app: TypedApp, service: KeysService): void {
  app.get(
    '/api/v1/keys/:hash',
    { config: management, schema: { tags, summary: 'Get an API key', params: KeyHashParams, response: { 200: one } } },
    async (request) => ({ data: await service.get(request.params.hash) }),
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
    async (request) => ({ data: await service.update(request.params.hash, request.body) }),
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
    async (request) => service.delete(request.params.hash),
  )
}
