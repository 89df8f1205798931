// What `serve` prints once it listens: where, on which store, and what it can serve. A fresh install
// with no provider learns here how to add one, instead of finding an empty model list later.
import type { Catalog, ProviderEntry } from '../domain/catalog.ts'
import { builtinProviders } from '../config/builtin-providers.ts'
import { hasNoCredential } from '../config/credential-source.ts'

export interface StartUpBannerInput {
  /** The address listen() answered, such as http://0.0.0.0:8080. */
  readonly address: string
  readonly storeEngine: string
  readonly catalog: Catalog
  /** Where the operator sets a provider's credential (credentialSource bound to the config). */
  readonly credentialSource: (provider: ProviderEntry) => string
}

export function startUpBanner({ address, storeEngine, catalog, credentialSource }: StartUpBannerInput): string {
  const providers = catalog.providers().map((provider) => provider.slug)
  const models = catalog.models().length
  const lines = [
    `Switchyard listening on ${address} (store: ${storeEngine})`,
    `Loaded ${count(providers.length, 'provider')}${providers.length > 0 ? ` (${providers.join(', ')})` : ''} and ${count(models, 'model')}.`,
  ]
  if (providers.length === 0) lines.push(...noProviderHint())
  else if (models === 0)
    lines.push('No model is declared: add models (with endpoints and prices) to the YAML config file.')
  for (const provider of catalog.providers().filter(needsCredentialWarning))
    lines.push(
      `Warning: provider ${provider.slug} has no credential (no api_key, no authorization header), so its requests are ` +
        `sent unauthenticated: set ${credentialSource(provider)}, unless it is a local server that needs none.`,
    )
  return `${lines.join('\n')}\n`
}

/** Local servers enabled by their base URL variable (Ollama, vLLM) need no key. */
function needsCredentialWarning(provider: ProviderEntry): boolean {
  const isLocalPreset =
    provider.source === 'preset' &&
    builtinProviders.some((preset) => preset.slug === provider.slug && preset.baseUrl === null)
  return !isLocalPreset && hasNoCredential(provider)
}

function noProviderHint(): string[] {
  const variables = builtinProviders.slice(0, 3).map((provider) => provider.variable)
  return [
    'No provider is configured, so no model can be served. Add one, then restart:',
    `  - set a provider's API key in the environment (${variables.join(', ')}, ...), or`,
    '  - declare providers and models in a YAML file named by SWITCHYARD_CONFIG (default ./switchyard.yaml).',
  ]
}

function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? '' : 's'}`
}
