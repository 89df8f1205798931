// openrouter:web_search — searches the web with the engine configured in `server_tools.web_search`
// (SearXNG, Brave, Tavily or Exa). Without one the model reads a clear error result.
import type { ServerTool } from './server-tool.ts'
import { ServerToolFailure, requiredStringArg } from './server-tool.ts'
import { webSearchEngineSpecs } from './web-search-engines.ts'

const timeoutMs = 15_000

export const webSearchTool: ServerTool = {
  description: 'Search the web. Returns the top results with title, URL and a snippet.',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string', description: 'What to search for' } },
    required: ['query'],
    additionalProperties: false,
  },
  failable: false,
  async run(args, context) {
    const query = requiredStringArg(args, 'query')
    const settings = context.settings.web_search
    const failedItem = { action: { type: 'search', query } }
    if (settings === null) {
      throw new ServerToolFailure(
        'web search is not configured on this gateway (the operator sets server_tools.web_search: {engine, base_url, api_key})',
        failedItem,
      )
    }
    const spec = webSearchEngineSpecs[settings.engine]
    const baseUrl = settings.base_url ?? spec.defaultBaseUrl
    if (baseUrl === null)
      throw new ServerToolFailure(
        `web search engine ${settings.engine} needs server_tools.web_search.base_url`,
        failedItem,
      )
    if (spec.needsKey && settings.api_key === null)
      throw new ServerToolFailure(
        `web search engine ${settings.engine} needs server_tools.web_search.api_key`,
        failedItem,
      )
    const { url, init } = spec.request(query, settings, baseUrl)
    const response = await fetch(url, {
      ...init,
      signal: AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]),
    }).catch((error: Error) => {
      throw new ServerToolFailure(`the search engine could not be reached: ${error.message}`, failedItem)
    })
    if (!response.ok) throw new ServerToolFailure(`the search engine answered HTTP ${response.status}`, failedItem)
    const requested = context.requestSettings.max_results
    const limit =
      typeof requested === 'number' && requested >= 1
        ? Math.min(Math.floor(requested), settings.max_results)
        : settings.max_results
    const hits = spec
      .hits(await response.json().catch(() => ({})))
      .filter((hit) => hit.url !== '')
      .slice(0, limit)
    const output =
      hits.length === 0
        ? 'No results.'
        : hits.map((hit, index) => `${index + 1}. ${hit.title}\n${hit.url}\n${hit.snippet}`).join('\n\n')
    return {
      output,
      item: { action: { type: 'search', query, sources: hits.map((hit) => ({ type: 'url', url: hit.url })) } },
      webSearchRequests: 1,
    }
  },
}
