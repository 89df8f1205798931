// openrouter:tool_search — finds the gateway's server tools by words in their names and descriptions,
// so a model can discover what it may ask the client to enable.
import type { ServerTool } from './server-tool.ts'
import { requiredStringArg } from './server-tool.ts'
import { searchByWords } from './word-search.ts'

export const toolSearchTool: ServerTool = {
  description:
    'Search the server tools this gateway offers (web search, fetching pages, time, sub-agents, ...) by keywords.',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string', description: 'Keywords' } },
    required: ['query'],
    additionalProperties: false,
  },
  failable: false,
  async run(args, context) {
    const query = requiredStringArg(args, 'query')
    const others = context.toolCatalog.filter((tool) => tool.name !== 'tool_search')
    const found = searchByWords(others, query, (tool) => `${tool.name.replace(/_/g, ' ')} ${tool.description}`, 10)
    const output =
      found.length === 0
        ? 'No tool matches.'
        : JSON.stringify(found.map((tool) => ({ type: `openrouter:${tool.name}`, description: tool.description })))
    return { output, item: { query } }
  },
}
