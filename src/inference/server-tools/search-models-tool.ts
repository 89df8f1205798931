// openrouter:experimental__search_models — finds models in this gateway's catalog by words (slug,
// name, description, modalities) and reports their context length and prices.
import type { ModelEntry } from '../../domain/catalog.ts'
import type { ServerTool } from './server-tool.ts'
import { requiredStringArg } from './server-tool.ts'
import { searchByWords } from './word-search.ts'

export const searchModelsTool: ServerTool = {
  description:
    'Search the models available on this gateway by keywords (name, provider, capability such as "image" or "embedding").',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string', description: 'Keywords' } },
    required: ['query'],
    additionalProperties: false,
  },
  failable: false,
  async run(args, context) {
    const query = requiredStringArg(args, 'query')
    const found = searchByWords(context.catalog.models(), query, modelText, 10).map(describeModel)
    return {
      output: found.length === 0 ? 'No model matches.' : JSON.stringify(found),
      item: { query, arguments: JSON.stringify(args) },
    }
  },
}

function modelText(model: ModelEntry): string {
  return [
    model.slug,
    model.name,
    model.description,
    model.kind,
    ...model.inputModalities,
    ...model.outputModalities,
  ].join(' ')
}

function describeModel(model: ModelEntry) {
  const endpoint = model.endpoints[0]
  return {
    id: model.slug,
    name: model.name,
    kind: model.kind,
    context_length: model.contextLength,
    input_modalities: model.inputModalities,
    output_modalities: model.outputModalities,
    pricing:
      endpoint === undefined
        ? null
        : { prompt: endpoint.pricingText.prompt, completion: endpoint.pricingText.completion },
  }
}
