import { Type } from 'typebox'
import type { TypedApp } from '../../http/typed-app.ts'
import type { AccessGuard } from '../interns/access-guard.ts'
import { callerOf } from '../interns/caller.ts'
import {
  CopyBody,
  EffectiveSecretList,
  InternParams,
  InternSecretParams,
  SecretParams,
  SecretWriteBody,
  VaultPageQuery,
  VaultSecret,
  VaultSecretList,
} from './schema.ts'
import type { Page, VaultService } from './service.ts'
import { refuseBadSecretName } from './refuse-bad-secret-name.ts'

const tags = ['vault']
const page = ({ offset, limit }: VaultPageQuery): Page => ({ offset: offset ?? 0, limit: limit ?? 100 })
const config = { auth: 'workspace' as const }
const SecretResponse = Type.Object({ data: VaultSecret })
const noContent = { 204: Type.Null({ description: 'Deleted' }) }

export function registerVaultRoutes(app: TypedApp, service: VaultService, guard: AccessGuard): void {
  registerWorkspaceSecretRoutes(app, service, guard)
  registerInternSecretRoutes(app, service, guard)
  registerCrossScopeRoutes(app, service, guard)
}

function registerWorkspaceSecretRoutes(app: TypedApp, service: VaultService, guard: AccessGuard): void {
  const workspaceWrite = [guard.hook({ scope: 'workspace-vault', vaultWrite: true }), refuseBadSecretName]
  app.get(
    '/api/v1/vault/secrets',
    {
      config,
      preValidation: guard.hook({ scope: 'workspace-vault' }),
      schema: {
        tags,
        summary: 'List workspace secrets (metadata only)',
        querystring: VaultPageQuery,
        response: { 200: VaultSecretList },
      },
    },
    async (request) => service.listWorkspaceSecrets(callerOf(request), page(request.query)),
  )
  app.put(
    '/api/v1/vault/secrets/:name',
    {
      config,
      preValidation: workspaceWrite,
      schema: {
        tags,
        summary: 'Store a workspace secret',
        params: SecretParams,
        body: SecretWriteBody,
        response: { 200: SecretResponse },
      },
    },
    async (request) => ({
      data: await service.storeWorkspaceSecret(callerOf(request), request.params.name, request.body),
    }),
  )
  app.delete(
    '/api/v1/vault/secrets/:name',
    {
      config,
      preValidation: workspaceWrite,
      schema: { tags, summary: 'Delete a workspace secret', params: SecretParams, response: noContent },
    },
    async (request, reply) => {
      await service.deleteWorkspaceSecret(callerOf(request), request.params.name)
      return reply.code(204).send(null)
    },
  )
}

function registerInternSecretRoutes(app: TypedApp, service: VaultService, guard: AccessGuard): void {
  const internWrite = [guard.hook({ scope: 'intern-vault', vaultWrite: true }), refuseBadSecretName]
  app.get(
    '/api/v1/vault/interns/:internId/secrets',
    {
      config,
      preValidation: guard.hook({ scope: 'intern-vault' }),
      schema: {
        tags,
        summary: "List an intern's secrets",
        params: InternParams,
        querystring: VaultPageQuery,
        response: { 200: VaultSecretList },
      },
    },
    async (request) => service.listInternSecrets(callerOf(request), request.params.internId, page(request.query)),
  )
  app.put(
    '/api/v1/vault/interns/:internId/secrets/:name',
    {
      config,
      preValidation: internWrite,
      schema: {
        tags,
        summary: 'Store an intern secret',
        params: InternSecretParams,
        body: SecretWriteBody,
        response: { 200: SecretResponse },
      },
    },
    async (request) => {
      const { internId, name } = request.params
      return { data: await service.storeInternSecret(callerOf(request), internId, name, request.body) }
    },
  )
  app.delete(
    '/api/v1/vault/interns/:internId/secrets/:name',
    {
      config,
      preValidation: internWrite,
      schema: { tags, summary: 'Delete an intern secret', params: InternSecretParams, response: noContent },
    },
    async (request, reply) => {
      const { internId, name } = request.params
      await service.deleteInternSecret(callerOf(request), internId, name)
      return reply.code(204).send(null)
    },
  )
}

/** Routes that span scopes: copying workspace secrets into an intern, and what each name resolves to for it. */
function registerCrossScopeRoutes(app: TypedApp, service: VaultService, guard: AccessGuard): void {
  app.post(
    '/api/v1/vault/interns/:internId/secrets/copy',
    {
      config,
      preValidation: [guard.hook({ scope: 'workspace-vault', vaultWrite: true }), refuseBadSecretName],
      schema: {
        tags,
        summary: 'Copy workspace secrets into an intern (all or nothing)',
        params: InternParams,
        body: CopyBody,
        response: { 200: Type.Object({ data: Type.Array(VaultSecret) }) },
      },
    },
    async (request) => service.copyToIntern(callerOf(request), request.params.internId, request.body.names),
  )
  app.get(
    '/api/v1/vault/interns/:internId/effective-secrets',
    {
      config,
      preValidation: guard.hook({ scope: 'intern-vault' }),
      schema: {
        tags,
        summary: 'The secret each name resolves to for an intern',
        params: InternParams,
        querystring: VaultPageQuery,
        response: { 200: EffectiveSecretList },
      },
    },
    async (request) => service.effectiveSecrets(callerOf(request), request.params.internId, page(request.query)),
  )
}
