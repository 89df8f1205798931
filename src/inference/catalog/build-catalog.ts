// Builds the catalog from the built-in presets enabled by the environment plus the config file's
// providers and models (config wins on the same slug). Every problem — an endpoint naming an unknown
// provider, an unparseable price — is reported at once; a model without a price never starts.
import type { Config } from '../../config/config.ts'
import { ConfigError } from '../../config/load-config.ts'
import { parsePricing, type PricingText } from '../../domain/money.ts'
import type { ModelConfig } from '../../config/schema.ts'
import { Catalog, type EndpointEntry, type ModelEntry, type ProviderEntry } from '../../domain/catalog.ts'
import { builtinProviders } from '../../config/builtin-providers.ts'
import { defaultParameters } from './default-parameters.ts'
import { builtinModels } from './builtin-models.ts'

const defaultTimeoutMs = 120_000

export function buildCatalog(config: Config): Catalog {
  const providers = enabledProviders(config)
  const declared = declaredModels(config, providers)
  const problems: string[] = []
  const models: ModelEntry[] = []
  const configIndex = new Map(config.models.map((model, index) => [model.slug, index]))
  for (const model of declared.values()) {
    const path = configIndex.has(model.slug) ? `models[${configIndex.get(model.slug)}]` : `built-in model ${model.slug}`
    const entry = toModelEntry(model, providers, path, problems)
    if (entry !== null) models.push(entry)
  }
  if (problems.length > 0) throw new ConfigError(config.config_path ?? 'catalog', problems)
  return new Catalog(models, [...providers.values()])
}

/** The built-in providers whose variable is set, then the config file's (which replace them by slug). */
function enabledProviders(config: Config): Map<string, ProviderEntry> {
  const providers = new Map<string, ProviderEntry>()
  for (const preset of builtinProviders) {
    const value = config.provider_env[preset.variable]
    if (value === undefined) continue
    const cloud = preset.fromEnv?.(config.provider_env)
    if (cloud === null) continue
    const isLocal = preset.baseUrl === null
    providers.set(preset.slug, {
      slug: preset.slug,
      name: preset.name,
      api: preset.api,
      baseUrl: cloud?.baseUrl ?? (isLocal ? localBaseUrl(value) : hostedBaseUrl(preset, config.provider_env)),
      apiKey: cloud === undefined ? (isLocal ? null : value) : cloud.apiKey,
      headers: {},
      options: cloud?.options ?? {},
      dataCollection: preset.dataCollection,
      zdr: preset.zdr,
      region: preset.region,
      timeoutMs: defaultTimeoutMs,
      source: 'preset',
    })
  }
  for (const provider of config.providers) {
    providers.set(provider.slug, {
      slug: provider.slug,
      name: provider.name ?? provider.slug,
      api: provider.api,
      baseUrl: provider.base_url.replace(/\/+$/, ''),
      apiKey: provider.api_key ?? null,
      ...(provider.credentials === undefined
        ? {}
        : {
            credentials: provider.credentials.map((credential, index) => ({
              name: credential.name ?? `key-${index + 1}`,
              apiKey: credential.api_key,
              weight: credential.weight ?? 1,
            })),
          }),
      ...(provider.retry === undefined
        ? {}
        : {
            retry: {
              maxAttempts: provider.retry.max_attempts,
              baseMs: provider.retry.base_ms ?? 200,
              maxMs: provider.retry.max_ms ?? 5_000,
            },
          }),
      headers: provider.headers ?? {},
      options: provider.options ?? {},
      dataCollection: provider.data_collection ?? 'deny',
      zdr: provider.zdr ?? false,
      region: provider.region ?? 'global',
      timeoutMs: provider.timeout_ms ?? defaultTimeoutMs,
      source: 'config',
    })
  }
  return providers
}

/** The built-in models of enabled providers, then the config file's models (which replace them by slug). */
function declaredModels(config: Config, providers: ReadonlyMap<string, ProviderEntry>): Map<string, ModelConfig> {
  const declared = new Map<string, ModelConfig>()
  for (const model of builtinModels) {
    if (!providers.has(model.provider)) continue
    declared.set(model.slug, {
      slug: model.slug,
      name: model.name,
      kind: model.kind,
      context_length: model.contextLength,
      endpoints: [
        {
          provider: model.provider,
          upstream_model_id: model.upstreamModelId,
          pricing: model.pricing,
          ...(model.maxOutputTokens === null ? {} : { max_output_tokens: model.maxOutputTokens }),
        },
      ],
    })
  }
  for (const model of config.models) declared.set(model.slug, model)
  return declared
}

function toModelEntry(
  model: ModelConfig,
  providers: ReadonlyMap<string, ProviderEntry>,
  path: string,
  problems: string[],
): ModelEntry | null {
  const contextLength = model.context_length ?? 128_000
  const endpoints: EndpointEntry[] = []
  for (const [index, endpoint] of model.endpoints.entries()) {
    const provider = providers.get(endpoint.provider)
    if (provider === undefined) {
      problems.push(
        `${path}.endpoints[${index}].provider: unknown provider "${endpoint.provider}"; declare it under providers or set its API key variable`,
      )
      continue
    }
    const pricingText: PricingText = endpoint.pricing
    let pricing
    try {
      pricing = parsePricing(pricingText)
    } catch (error) {
      problems.push(`${path}.endpoints[${index}].pricing: ${(error as Error).message}`)
      continue
    }
    endpoints.push({
      id: `${provider.slug}/${endpoint.upstream_model_id}`,
      modelSlug: model.slug,
      provider,
      upstreamModelId: endpoint.upstream_model_id,
      pricingText,
      pricing,
      contextLength: endpoint.context_length ?? contextLength,
      maxOutputTokens: endpoint.max_output_tokens ?? null,
      serviceTier: endpoint.service_tier ?? 'default',
      supportedParameters: endpoint.supported_parameters ?? defaultParameters(model.kind ?? 'text', provider.api),
    })
  }
  if (endpoints.length === 0) return null
  return {
    slug: model.slug,
    name: model.name ?? model.slug,
    kind: model.kind ?? 'text',
    description: model.description ?? '',
    contextLength,
    inputModalities: model.input_modalities ?? ['text'],
    outputModalities: model.output_modalities ?? [model.kind === 'embedding' ? 'embeddings' : 'text'],
    endpoints,
  }
}

/** A hosted preset's base URL, or `<NAME>_BASE_URL` (OPENAI_BASE_URL, as the OpenAI SDK reads it) when set. */
function hostedBaseUrl(preset: (typeof builtinProviders)[number], env: Readonly<Record<string, string>>): string {
  const override = env[preset.variable.replace(/_API_KEY$/, '_BASE_URL')]
  return override === undefined || override === '' ? preset.baseUrl! : override.replace(/\/+$/, '')
}

function localBaseUrl(value: string): string {
  const trimmed = value.replace(/\/+$/, '')
  return trimmed.endsWith('/v1') ? trimmed : `${trimmed}/v1`
}
