// Built-in cloud providers, enabled by their usual environment variables. Their base URL and options
// come from several variables, so each preset reads them in `fromEnv` (null: not enough to enable it).
import type { BuiltinProvider, PresetSettings } from './builtin-providers.ts'

type Env = Readonly<Record<string, string>>

/** Azure OpenAI: AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT; OPENAI_API_VERSION picks deployment URLs. */
function azureFromEnv(env: Env): PresetSettings | null {
  const endpoint = env.AZURE_OPENAI_ENDPOINT
  if (endpoint === undefined) return null
  const version = env.OPENAI_API_VERSION
  return {
    baseUrl: endpoint.replace(/\/+$/, '').replace(/\/openai$/, ''),
    apiKey: env.AZURE_OPENAI_API_KEY ?? null,
    options: version === undefined ? {} : { api_version: version },
  }
}

export const cloudPresets: readonly BuiltinProvider[] = [
  {
    slug: 'azure',
    name: 'Azure OpenAI',
    api: 'azure-openai',
    variable: 'AZURE_OPENAI_API_KEY',
    baseUrl: null,
    dataCollection: 'deny',
    zdr: false,
    region: 'global',
    fromEnv: azureFromEnv,
  },
]

/** Every variable a cloud preset reads, collected by the config loader besides `*_API_KEY` / `*_BASE_URL`. */
export const cloudEnvNames: ReadonlySet<string> = new Set([
  'AZURE_OPENAI_API_KEY',
  'AZURE_OPENAI_ENDPOINT',
  'OPENAI_API_VERSION',
])
