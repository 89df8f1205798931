import type { FastifyRequest } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { OffsetLimitQuery, TotalCountList, offsetPage } from '../../http/pagination.ts'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import { presetFormatPaths, type PresetFormat } from '../../presets/preset-format.ts'
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

/** Each format's request body; typed per format, so a route's body is the static type of its schema. */
const bodies = {
  responses: ResponsesPresetBody,
  chat: ChatPresetBody,
  messages: MessagesPresetBody,
} satisfies Record<PresetFormat, TSchema>

const tags = ['presets']
const config = { auth: 'unconfined' as const }

function keyOf(request: FastifyRequest): ApiKeyRecord {
  return request.principal!.key
}

export function registerPresetsRoutes(app: TypedApp, service: PresetsService): void {
  registerPresetReads(app, service)
  registerVersionReads(app, service)
  registerCreateFromBodyRoutes(app, service)
}

function registerPresetReads(app: TypedApp, service: PresetsService): void {
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
      const { offset, limit } = offsetPage(request.query)
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
    async (request) => ({ data: await service.get(keyOf(request).workspaceId, request.params.slug) }),
  )
}

function registerVersionReads(app: TypedApp, service: PresetsService): void {
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
      const { offset, limit } = offsetPage(request.query)
      return service.listVersions(keyOf(request).workspaceId, request.params.slug, offset, limit)
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
      const { slug, version } = request.params
      return { data: await service.getVersion(keyOf(request).workspaceId, slug, version) }
    },
  )
}

/** One create route per format: the body is that format's inference request, stored as the next version. */
function registerCreateFromBodyRoutes(app: TypedApp, service: PresetsService): void {
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
        data: await service.createFromBody(keyOf(request), request.params.slug, request.body, format),
      }),
    )
  }
}
