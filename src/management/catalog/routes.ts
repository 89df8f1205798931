// Catalog routes: what models and providers this gateway routes to, in OpenRouter's shapes.
import { Type } from 'typebox'
import type { Catalog } from '../../domain/catalog.ts'
import { GatewayError } from '../../domain/errors.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import { presentModel, presentModelEndpoints, presentProvider } from './present-catalog.ts'

const tags = ['models']

const ListModelsQuery = Type.Object({
  category: Type.Optional(Type.String()),
  supported_parameters: Type.Optional(Type.String()),
})

const ModelPath = Type.Object({ author: Type.String({ minLength: 1 }), slug: Type.String({ minLength: 1 }) })

export function registerCatalogRoutes(app: TypedApp, catalog: Catalog): void {
  app.get(
    '/api/v1/models',
    { config: { auth: 'any' }, schema: { tags, summary: 'List models', querystring: ListModelsQuery } },
    async (request) => {
      const data = listTextModels(catalog, parameterNames(request.query.supported_parameters))
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
    { config: { auth: 'any' }, schema: { tags, summary: "List a model's endpoints", params: ModelPath } },
    async (request) => {
      const { author, slug } = request.params
      const model = catalog.model(`${author}/${slug}`)
      if (model === undefined) throw new GatewayError('not_found', `Model "${author}/${slug}" does not exist`)
      return { data: presentModelEndpoints(model) }
    },
  )

  app.get('/api/v1/providers', { config: { auth: 'any' }, schema: { tags, summary: 'List providers' } }, async () => ({
    data: catalog.providers().map(presentProvider),
  }))
}

/** The comma-separated `supported_parameters` filter as a list of names (none when absent). */
function parameterNames(wanted: string | undefined): string[] {
  if (wanted === undefined) return []
  return wanted
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
}

/** The text models whose endpoints together support every required parameter. */
function listTextModels(catalog: Catalog, required: readonly string[]) {
  return catalog
    .models()
    .filter((model) => model.kind === 'text')
    .map(presentModel)
    .filter((model) => required.every((name) => model.supported_parameters.includes(name)))
}
