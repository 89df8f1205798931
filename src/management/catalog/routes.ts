// Catalog routes: what models and providers this gateway routes to, in OpenRouter's shapes.
import { Type } from 'typebox'
import type { Catalog, ModelEntry } from '../../domain/catalog.ts'
import { GatewayError } from '../../domain/errors.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import { presentModel, presentModelEndpoints, presentProvider } from './present-catalog.ts'

const tags = ['models']

const ListModelsQuery = Type.Object({
  category: Type.Optional(Type.String()),
  supported_parameters: Type.Optional(Type.String()),
})

const ModelPath = Type.Object({ author: Type.String({ minLength: 1 }), slug: Type.String({ minLength: 1 }) })

const ModelIdPath = Type.Object({
  id: Type.String({ minLength: 1, description: 'The model slug with its slash encoded (`vendor%2Fmodel`)' }),
})

const CountModelsQuery = Type.Object({
  output_modalities: Type.Optional(
    Type.String({
      description: 'Comma-separated output modalities (text, image, embeddings, ...) or `all`; default `text`',
    }),
  ),
})

const ModelCount = Type.Object({ data: Type.Object({ count: Type.Integer({ minimum: 0 }) }) })

export function registerCatalogRoutes(app: TypedApp, catalog: Catalog): void {
  registerModelLookupRoutes(app, catalog)

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
      return { data: presentModelEndpoints(requireModel(catalog, `${author}/${slug}`)) }
    },
  )

  app.get('/api/v1/providers', { config: { auth: 'any' }, schema: { tags, summary: 'List providers' } }, async () => ({
    data: catalog.providers().map(presentProvider),
  }))
}

/** One model by its slug (as each client spells the path), and how many models there are. */
function registerModelLookupRoutes(app: TypedApp, catalog: Catalog): void {
  app.get(
    '/api/v1/models/count',
    {
      config: { auth: 'any' },
      schema: { tags, summary: 'Count models', querystring: CountModelsQuery, response: { 200: ModelCount } },
    },
    async (request) => ({ data: { count: countModels(catalog, request.query.output_modalities) } }),
  )

  app.get(
    '/api/v1/models/:id',
    {
      config: { auth: 'any' },
      schema: {
        tags,
        summary: 'Get a model by its encoded slug (the list item alone, as OpenAI clients read it)',
        params: ModelIdPath,
      },
    },
    async (request) => presentModel(requireModel(catalog, request.params.id)),
  )

  app.get(
    '/api/v1/model/:author/:slug',
    { config: { auth: 'any' }, schema: { tags, summary: 'Get a model', params: ModelPath } },
    async (request) => ({
      data: presentModel(requireModel(catalog, `${request.params.author}/${request.params.slug}`)),
    }),
  )
}

/** The catalog's model with this slug; a 404 naming it and the list route otherwise. */
function requireModel(catalog: Catalog, slug: string): ModelEntry {
  const model = catalog.model(slug)
  if (model === undefined) {
    throw new GatewayError('not_found', `Model "${slug}" does not exist; GET /api/v1/models lists the models served`)
  }
  return model
}

/** How many models output any of the named modalities (`all`: every model; absent: `text`). */
function countModels(catalog: Catalog, wanted: string | undefined): number {
  const modalities = parameterNames(wanted ?? 'text')
  const models = catalog.models()
  if (modalities.includes('all')) return models.length
  return models.filter((model) => model.outputModalities.some((modality) => modalities.includes(modality))).length
}

/** A comma-separated query value (`supported_parameters`, `output_modalities`) as a list of names (none when absent). */
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
