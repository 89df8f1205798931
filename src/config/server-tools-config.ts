// The optional `server_tools` section of the config file: which web search engine to use, which models
// the nested-call tools ask, and the sandbox runner that enables bash, shell and apply_patch.
import { Type, type Static } from 'typebox'

const strict = { additionalProperties: false }
const Model = Type.Optional(Type.String({ minLength: 1 }))

export const webSearchEngines = ['searxng', 'brave', 'tavily', 'exa'] as const
export type WebSearchEngine = (typeof webSearchEngines)[number]

export const ServerToolsConfigSchema = Type.Object(
  {
    web_search: Type.Optional(
      Type.Object(
        {
          engine: Type.Enum([...webSearchEngines]),
          base_url: Type.Optional(Type.String({ minLength: 1 })),
          api_key: Type.Optional(Type.String({ minLength: 1 })),
          max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
        },
        strict,
      ),
    ),
    web_fetch: Type.Optional(
      Type.Object(
        {
          max_bytes: Type.Optional(Type.Integer({ minimum: 1024 })),
          timeout_ms: Type.Optional(Type.Integer({ minimum: 100 })),
        },
        strict,
      ),
    ),
    subagent: Type.Optional(Type.Object({ model: Model }, strict)),
    advisor: Type.Optional(Type.Object({ model: Model }, strict)),
    fusion: Type.Optional(
      Type.Object(
        {
          models: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 8 })),
          judge_model: Model,
        },
        strict,
      ),
    ),
    image_generation: Type.Optional(Type.Object({ model: Model }, strict)),
    sandbox: Type.Optional(
      Type.Object(
        {
          url: Type.String({ minLength: 1 }),
          api_key: Type.Optional(Type.String({ minLength: 1 })),
          timeout_ms: Type.Optional(Type.Integer({ minimum: 100 })),
        },
        strict,
      ),
    ),
  },
  strict,
)

export type ServerToolsConfigFile = Static<typeof ServerToolsConfigSchema>

export interface ServerToolsSetting {
  readonly web_search: {
    readonly engine: WebSearchEngine
    readonly base_url: string | null
    readonly api_key: string | null
    readonly max_results: number
  } | null
  readonly web_fetch: { readonly max_bytes: number; readonly timeout_ms: number }
  readonly subagent: { readonly model: string | null }
  readonly advisor: { readonly model: string | null }
  readonly fusion: { readonly models: readonly string[]; readonly judge_model: string | null }
  readonly image_generation: { readonly model: string | null }
  /** The sandbox runner for bash, shell and apply_patch; null refuses those tools. */
  readonly sandbox: { readonly url: string; readonly api_key: string | null; readonly timeout_ms: number } | null
}

export function serverToolsSetting(file: ServerToolsConfigFile | undefined): ServerToolsSetting {
  const search = file?.web_search
  const sandbox = file?.sandbox
  return {
    web_search:
      search === undefined
        ? null
        : {
            engine: search.engine,
            base_url: search.base_url ?? null,
            api_key: search.api_key ?? null,
            max_results: search.max_results ?? 5,
          },
    web_fetch: {
      max_bytes: file?.web_fetch?.max_bytes ?? 1024 * 1024,
      timeout_ms: file?.web_fetch?.timeout_ms ?? 10_000,
    },
    subagent: { model: file?.subagent?.model ?? null },
    advisor: { model: file?.advisor?.model ?? null },
    fusion: { models: file?.fusion?.models ?? [], judge_model: file?.fusion?.judge_model ?? null },
    image_generation: { model: file?.image_generation?.model ?? null },
    sandbox:
      sandbox === undefined
        ? null
        : { url: sandbox.url, api_key: sandbox.api_key ?? null, timeout_ms: sandbox.timeout_ms ?? 60_000 },
  }
}
