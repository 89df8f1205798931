import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { OffsetLimitQuery, TotalCountList, offsetPage } from '../../http/pagination.ts'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import { presetFormatPaths, type JsonObject, type PresetFormat } from '../../presets/preset-format.ts'
import {
  ChatPresetBody,
  MessagesPresetBody,
  Preset,
  PresetSlugPath,
  PresetVersion,
  PresetVersionPath,
  PresetWithDesignatedVersion,
  ResponsesPresetBody,
} from './schema.ts'
import type { PresetsService } from './service.ts'

const bodies: Readonly<Record<PresetFormat, TSchema>> = {
  responses: ResponsesPresetBody,
  chat: ChatPresetBody,
  messages: MessagesPresetBody,
}

function keyOf(request: FastifyRequest): ApiKeyRecord {
  return request.principal!.key
}

function pageOf(request: FastifyRequest): { offset: number; limit: number } {
  return offsetPage(request.query as { offset?: number; limit?: number })
}

export function registerPresetsRoutes(app: FastifyInstance, service: PresetsService): void {
  const tags = ['presets']
  const config = { auth: 'any' as const }

  app.get(
    '/api/v1/presets',
    {
      config,
      schema: {
        tags,
        summary: 'List presets, most recently updated first',
        querystring: OffsetLimitQuery,
        response: { 200: TotalCountList(Preset) },
      },
    },
    async (request) => {
      const { offset, limit } = pageOf(request)
      return service.list(keyOf(request).workspaceId, offset, limit)
    },
  )

  app.get(
    '/api/v1/presets/:slug',
    {
      config,
      schema: {
        tags,
        summary: 'Get a preset with its designated version',
        params: PresetSlugPath,
        response: { 200: Type.Object({ data: PresetWithDesignatedVersion }) },
      },
    },
    async (request) => ({
      data: await service.get(keyOf(request).workspaceId, (request.params as { slug: string }).slug),
    }),
  )

  app.get(
    '/api/v1/presets/:slug/versions',
    {
      config,
      schema: {
        tags,
        summary: 'List the versions of a preset, oldest first',
        params: PresetSlugPath,
        querystring: OffsetLimitQuery,
        response: { 200: TotalCountList(PresetVersion) },
      },
    },
    async (request) => {
      const { offset, limit } = pageOf(request)
      return service.listVersions(keyOf(request).workspaceId, (request.params as { slug: string }).slug, offset, limit)
    },
  )

  app.get(
    '/api/v1/presets/:slug/versions/:version',
    {
      config,
      schema: {
        tags,
        summary: 'Get one version of a preset',
        params: PresetVersionPath,
        response: { 200: Type.Object({ data: PresetVersion }) },
      },
    },
    async (request) => {
      const { slug, version } = request.params as { slug: string; version: string }
      return { data: await service.getVersion(keyOf(request).workspaceId, slug, version) }
    },
  )

  for (const format of Object.keys(presetFormatPaths) as PresetFormat[]) {
    app.post(
      `/api/v1/presets/:slug/${presetFormatPaths[format]}`,
      {
        config,
        schema: {
          tags,
          summary: `Create a preset (or its next version) from a ${presetFormatPaths[format]} request body; runs no inference`,
          params: PresetSlugPath,
          body: bodies[format],
          response: { 200: Type.Object({ data: PresetWithDesignatedVersion }) },
        },
      },
      async (request) => ({
        data: await service.createFromBody(
          keyOf(request),
          (request.params as { slug: string }).slug,
          request.body as JsonObject,
          format,
        ),
      }),
    )
  }
}
