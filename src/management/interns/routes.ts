import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { GatewayError } from '../../domain/errors.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import type { AccessGuard } from './access-guard.ts'
import { callerOf } from './caller.ts'
import {
  CreateInternBody,
  DeleteInternBody,
  Intern,
  InternIdParams,
  InternList,
  ListInternsQuery,
  UpdateInternBody,
} from './schema.ts'
import type { InternService } from './service.ts'

const tags = ['interns']
const config = { auth: 'workspace' as const }

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key']
  if (header === undefined) return undefined
  if (typeof header !== 'string' || header.length < 1 || header.length > 255) {
    throw new GatewayError('invalid_request', 'Idempotency-Key must be one header of 1 to 255 characters')
  }
  return header
}

function refuseBody(request: FastifyRequest): void {
  const body = request.body
  if (body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0)) return
  throw new GatewayError('invalid_request', `${request.url.split('?')[0]} takes no request body; send none`)
}

export function registerInternRoutes(app: TypedApp, service: InternService, guard: AccessGuard): void {
  registerCollectionRoutes(app, service, guard)
  registerInternItemRoutes(app, service, guard)
  registerLifecycleActions(app, service, guard)
}

function registerCollectionRoutes(app: TypedApp, service: InternService, guard: AccessGuard): void {
  const collection = guard.hook({ scope: 'collection' })
  app.post(
    '/api/v1/interns',
    {
      config,
      preValidation: collection,
      schema: {
        tags,
        summary: 'Create an intern (idempotent)',
        body: CreateInternBody,
        response: { 200: Intern, 201: Intern },
      },
    },
    async (request, reply) => {
      const { intern, created } = await service.create(callerOf(request), request.body, idempotencyKeyOf(request))
      return reply.code(created ? 201 : 200).send(intern)
    },
  )
  app.get(
    '/api/v1/interns',
    {
      config,
      preValidation: collection,
      schema: {
        tags,
        summary: 'List interns, newest first',
        querystring: ListInternsQuery,
        response: { 200: InternList },
      },
    },
    async (request) => service.list(callerOf(request), request.query),
  )
}

function registerInternItemRoutes(app: TypedApp, service: InternService, guard: AccessGuard): void {
  const lifecycle = guard.hook({ scope: 'intern-lifecycle' })
  app.get(
    '/api/v1/interns/:internId',
    {
      config,
      preValidation: guard.hook({ scope: 'intern-read' }),
      schema: { tags, summary: 'Get an intern', params: InternIdParams, response: { 200: Intern } },
    },
    async (request) => service.get(callerOf(request), request.params.internId),
  )
  app.patch(
    '/api/v1/interns/:internId',
    {
      config,
      preValidation: lifecycle,
      schema: {
        tags,
        summary: 'Update an intern',
        params: InternIdParams,
        body: UpdateInternBody,
        response: { 200: Intern },
      },
    },
    async (request) => service.update(callerOf(request), request.params.internId, request.body),
  )
  app.delete(
    '/api/v1/interns/:internId',
    {
      config,
      preValidation: lifecycle,
      schema: {
        tags,
        summary: 'Delete an intern (starts teardown)',
        params: InternIdParams,
        body: DeleteInternBody,
        response: { 202: Type.Object({ deleting: Type.Boolean() }) },
      },
    },
    async (request, reply) => {
      const acknowledged = request.body?.acknowledge_workspace_loss === true
      await service.remove(callerOf(request), request.params.internId, acknowledged)
      return reply.code(202).send({ deleting: true })
    },
  )
}

/** Provision and suspend take no body: one sent by mistake is refused rather than ignored. */
function registerLifecycleActions(app: TypedApp, service: InternService, guard: AccessGuard): void {
  const lifecycle = guard.hook({ scope: 'intern-lifecycle' })
  app.post(
    '/api/v1/interns/:internId/provision',
    {
      config,
      preValidation: lifecycle,
      schema: {
        tags,
        summary: 'Provision (first boot or resume)',
        params: InternIdParams,
        response: { 202: Type.Object({ provisioning: Type.Boolean() }) },
      },
    },
    async (request, reply) => {
      refuseBody(request)
      await service.provision(callerOf(request), request.params.internId)
      return reply.code(202).send({ provisioning: true })
    },
  )
  app.post(
    '/api/v1/interns/:internId/suspend',
    {
      config,
      preValidation: lifecycle,
      schema: {
        tags,
        summary: 'Suspend (stop the runtime, keep the disk)',
        params: InternIdParams,
        response: { 200: Type.Object({ suspended: Type.Boolean() }) },
      },
    },
    async (request) => {
      refuseBody(request)
      await service.suspend(callerOf(request), request.params.internId)
      return { suspended: true }
    },
  )
}
