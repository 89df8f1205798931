// Catalog routes: what models and providers this gateway routes to, in OpenRouter's shapes.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { GatewayError } from '../../domain/errors.ts'
import type { Catalog } from '../../domain/catalog.ts'
import { presentModel, presentModelEndpoints, presentProvider } from './present-catalog.ts'

export function registerCatalogRoutes(app: FastifyInstance, catalog: Catalog): void {
  const tags = ['models']
  app.get(
    '/api/v1/models',
    {
      config: { auth: 'any' },
      schema: {
        tags,
        summary: 'List models',
        querystring: Type.Object({
          category: Type.Optional(Type.String()),
          supported_parameters: Type.Optional(Type.String()),
        }),
      },
    },
    async (request) => {
      const { supported_parameters: wanted } = request.query as { supported_parameters?: string }
      const required =
        wanted === undefined
          ? []
          : wanted
              .split(',')
              .map((name) => name.trim())
              .filter((name) => name !== '')
      const models = catalog
        .models()
        .filter((model) => model.kind === 'text')
        .map(presentModel)
      const data = models.filter((model) => required.every((name) => model.supported_parameters.includes(name)))
      return { data, total_count: data.length, links: { next: null } }
    },
  )

  app.get(
    '/api/v1/embeddings/models',
    { config: { auth: 'any' }, schema: { tags, summary: 'List embedding models' } },
    async () => {
      const data = catalog
        .models()
        .filter((model) => model.kind === 'embedding')
        .map(presentModel)
      return { data, total_count: data.length, links: { next: null } }
    },
  )

  app.get(
    '/api/v1/models/:author/:slug/endpoints',
    {
      config: { auth: 'any' },
      schema: {
        tags,
        summary: "List a model's endpoints",
        params: Type.Object({ author: Type.String({ minLength: 1 }), slug: Type.String({ minLength: 1 }) }),
      },
    },
    async (request) => {
      const { author, slug } = request.params as { author: string; slug: string }
      const model = catalog.model(`${author}/${slug}`)
      if (model === undefined) throw new GatewayError('not_found', `Model "${author}/${slug}" does not exist`)
      return { data: presentModelEndpoints(model) }
    },
  )

  app.get('/api/v1/providers', { config: { auth: 'any' }, schema: { tags, summary: 'List providers' } }, async () => ({
    data: catalog.providers().map(presentProvider),
  }))
}
