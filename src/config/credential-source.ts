// Where an operator fixes a provider's credential: the environment variable of a built-in provider,
// the api_key field of a config file provider, or a private endpoint's stored credential. Named in
// doctor's failures, the start-up warnings and the log line of an upstream's 401/403.
import type { Config } from './config.ts'
import { builtinProviders } from './builtin-providers.ts'
import type { ProviderEntry } from '../domain/catalog.ts'

export function credentialSource(config: Config, provider: Pick<ProviderEntry, 'slug' | 'source'>): string {
  if (provider.source === 'private-endpoint')
    return `the credential of private endpoint provider "${provider.slug}" (PUT /api/v1/private-endpoints/{id}/credential)`
  const index = config.providers.findIndex((entry) => entry.slug === provider.slug)
  if (provider.source === 'config' && index >= 0) {
    const field = config.providers[index]!.credentials === undefined ? 'api_key' : 'credentials'
    return `providers[${index}].${field} in ${config.config_path ?? 'the config file'}`
  }
  const preset = builtinProviders.find((entry) => entry.slug === provider.slug)
  return preset === undefined ? `the api_key of provider "${provider.slug}"` : preset.variable
}

/** Whether a provider sends no credential at all: no key and no authorization-like header of its own. */
export function hasNoCredential(provider: Pick<ProviderEntry, 'apiKey' | 'headers' | 'credentials'>): boolean {
  if (provider.apiKey !== null && provider.apiKey !== '') return false
  if (provider.credentials !== undefined) return false
  return !Object.keys(provider.headers).some((name) =>
    ['authorization', 'x-api-key', 'api-key', 'x-goog-api-key'].includes(name.toLowerCase()),
  )
}
