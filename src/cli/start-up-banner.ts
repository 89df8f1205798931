// What `serve` prints once it listens: where, on which store, and what it can serve. A fresh install
// with no provider learns here how to add one, instead of finding an empty model list later.
import type { Catalog } from '../domain/catalog.ts'
import { builtinProviders } from '../config/builtin-providers.ts'

export interface StartUpBannerInput {
  /** The address listen() answered, such as http://0.0.0.0:8080. */
  readonly address: string
  readonly storeEngine: string
  readonly catalog: Catalog
}

export function startUpBanner({ address, storeEngine, catalog }: StartUpBannerInput): string {
  const providers = catalog.providers().map((provider) => provider.slug)
  const models = catalog.models().length
  const lines = [
    `Switchyard listening on ${address} (store: ${storeEngine})`,
    `Loaded ${count(providers.length, 'provider')}${providers.length > 0 ? ` (${providers.join(', ')})` : ''} and ${count(models, 'model')}.`,
  ]
  if (providers.length === 0) lines.push(...noProviderHint())
  else if (models === 0)
    lines.push('No model is declared: add models (with endpoints and prices) to the YAML config file.')
  return `${lines.join('\n')}\n`
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
