// The web search engines an operator can configure, one request/response mapping each. The engine's
// base URL and key come from config (`server_tools.web_search`), never from the request.
import type { WebSearchEngine } from '../../config/server-tools-config.ts'

export interface SearchHit {
  readonly title: string
  readonly url: string
  readonly snippet: string
}

export interface EngineSettings {
  readonly base_url: string | null
  readonly api_key: string | null
  readonly max_results: number
}

interface EngineSpec {
  readonly defaultBaseUrl: string | null
  readonly needsKey: boolean
  request(query: string, settings: EngineSettings, baseUrl: string): { url: string; init: RequestInit }
  hits(body: unknown): SearchHit[]
}

type Json = Record<string, unknown>
const list = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((entry): entry is Json => typeof entry === 'object' && entry !== null) : []
const text = (value: unknown): string => (typeof value === 'string' ? value : '')
const trimSlash = (url: string): string => url.replace(/\/+$/, '')
const jsonPost = (body: Json, headers: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
})

export const webSearchEngineSpecs: Readonly<Record<WebSearchEngine, EngineSpec>> = {
  searxng: {
    defaultBaseUrl: null,
    needsKey: false,
    request: (query, _settings, baseUrl) => ({
      url: `${trimSlash(baseUrl)}/search?${new URLSearchParams({ q: query, format: 'json' })}`,
      init: { method: 'GET' },
    }),
    hits: (body) =>
      list((body as Json).results).map((hit) => ({
        title: text(hit.title),
        url: text(hit.url),
        snippet: text(hit.content),
      })),
  },
  brave: {
    defaultBaseUrl: 'https://api.search.brave.com',
    needsKey: true,
    request: (query, settings, baseUrl) => ({
      url: `${trimSlash(baseUrl)}/res/v1/web/search?${new URLSearchParams({ q: query, count: String(settings.max_results) })}`,
      init: { method: 'GET', headers: { accept: 'application/json', 'x-subscription-token': settings.api_key ?? '' } },
    }),
    hits: (body) =>
      list(((body as Json).web as Json | undefined)?.results).map((hit) => ({
        title: text(hit.title),
        url: text(hit.url),
        snippet: text(hit.description),
      })),
  },
  tavily: {
    defaultBaseUrl: 'https://api.tavily.com',
    needsKey: true,
    request: (query, settings, baseUrl) => ({
      url: `${trimSlash(baseUrl)}/search`,
      init: jsonPost(
        { query, max_results: settings.max_results },
        { authorization: `Bearer ${settings.api_key ?? ''}` },
      ),
    }),
    hits: (body) =>
      list((body as Json).results).map((hit) => ({
        title: text(hit.title),
        url: text(hit.url),
        snippet: text(hit.content),
      })),
  },
  exa: {
    defaultBaseUrl: 'https://api.exa.ai',
    needsKey: true,
    request: (query, settings, baseUrl) => ({
      url: `${trimSlash(baseUrl)}/search`,
      init: jsonPost(
        { query, numResults: settings.max_results, contents: { text: { maxCharacters: 1000 } } },
        { 'x-api-key': settings.api_key ?? '' },
      ),
    }),
    hits: (body) =>
      list((body as Json).results).map((hit) => ({
        title: text(hit.title),
        url: text(hit.url),
        snippet: text(hit.text),
      })),
  },
}
