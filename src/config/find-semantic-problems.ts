// The checks a schema cannot express: slugs are unique, every endpoint names a provider that exists
// (declared in the file or enabled by its environment variable), every price parses. They run in the
// same pass as the schema, on the same tree, and each reads only the parts that passed their own
// schema: a schema error elsewhere never hides them, and a part that failed the schema is reported once.
import { Value } from 'typebox/value'
import type { TString } from 'typebox'
import { parsePrice } from '../domain/money.ts'
import { vertexSettingsProblem } from '../providers/vertex/urls.ts'
import { builtinProviders, presetEnabled } from './builtin-providers.ts'
import { EndpointProviderSchema, ModelSlugSchema, PricingSchema, ProviderSlugSchema } from './schema.ts'

interface Endpoint {
  readonly path: string
  readonly value: unknown
}

export function findSemanticProblems(file: unknown, providerEnv: Readonly<Record<string, string>>): string[] {
  const providers = listAt(file, 'providers')
  const endpoints = endpointsOf(listAt(file, 'models') ?? [])
  return [
    ...findDuplicateSlugs('providers', providers ?? [], ProviderSlugSchema),
    ...findDuplicateSlugs('models', listAt(file, 'models') ?? [], ModelSlugSchema),
    ...findUnknownProviders(endpoints, knownProviders(providers, providerEnv)),
    ...findUnparseablePrices(endpoints),
    ...findCredentialProblems(providers ?? []),
    ...findVertexProblems(providers ?? []),
  ]
}

/** A provider holds one key (`api_key`) or a pool (`credentials`), and its pool's names are unique. */
function findCredentialProblems(providers: readonly unknown[]): string[] {
  const problems: string[] = []
  for (const [index, provider] of providers.entries()) {
    const credentials = fieldOf(provider, 'credentials')
    if (!Array.isArray(credentials)) continue
    if (fieldOf(provider, 'api_key') !== undefined)
      problems.push(`providers[${index}]: set api_key or credentials, not both`)
    const names = credentials.map((credential) => fieldOf(credential, 'name')).filter((name) => name !== undefined)
    const repeated = names.find((name, position) => names.indexOf(name) !== position)
    if (repeated !== undefined)
      problems.push(`providers[${index}].credentials: the name "${String(repeated)}" is used twice`)
  }
  return problems
}

/** A vertex provider names its project, in `options` or in its base_url, so that requests can be routed. */
function findVertexProblems(providers: readonly unknown[]): string[] {
  const problems: string[] = []
  for (const [index, provider] of providers.entries()) {
    const baseUrl = fieldOf(provider, 'base_url')
    const options = fieldOf(provider, 'options')
    if (fieldOf(provider, 'api') !== 'vertex' || typeof baseUrl !== 'string') continue
    if (options !== undefined && !isStringRecord(options)) continue
    const problem = vertexSettingsProblem(baseUrl, options)
    if (problem !== null) problems.push(`providers[${index}]: ${problem}`)
  }
  return problems
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((entry) => typeof entry === 'string')
}

function findDuplicateSlugs(section: string, entries: readonly unknown[], slugSchema: TString): string[] {
  const problems: string[] = []
  const firstIndex = new Map<string, number>()
  for (const [index, entry] of entries.entries()) {
    const slug = fieldOf(entry, 'slug')
    if (!Value.Check(slugSchema, slug)) continue
    const first = firstIndex.get(slug)
    if (first === undefined) firstIndex.set(slug, index)
    else problems.push(`${section}[${index}].slug: "${slug}" is already used by ${section}[${first}]`)
  }
  return problems
}

/**
 * The file's provider slugs plus the built-in providers whose variable is set; null when a provider
 * entry has no valid slug (it may be the one an endpoint names, so "unknown" would be a guess).
 */
function knownProviders(
  providers: readonly unknown[] | null,
  providerEnv: Readonly<Record<string, string>>,
): ReadonlySet<string> | null {
  if (providers === null) return null
  const known = new Set(
    builtinProviders.filter((preset) => presetEnabled(preset, providerEnv)).map((preset) => preset.slug),
  )
  for (const provider of providers) {
    const slug = fieldOf(provider, 'slug')
    if (!Value.Check(ProviderSlugSchema, slug)) return null
    known.add(slug)
  }
  return known
}

function findUnknownProviders(endpoints: readonly Endpoint[], known: ReadonlySet<string> | null): string[] {
  if (known === null) return []
  const problems: string[] = []
  for (const endpoint of endpoints) {
    const name = fieldOf(endpoint.value, 'provider')
    if (Value.Check(EndpointProviderSchema, name) && !known.has(name))
      problems.push(
        `${endpoint.path}.provider: unknown provider "${name}"; declare it under providers or set its API key variable`,
      )
  }
  return problems
}

/** The schema checks a price's form; parsing also refuses more decimal places than the ledger keeps. */
function findUnparseablePrices(endpoints: readonly Endpoint[]): string[] {
  const problems: string[] = []
  for (const endpoint of endpoints) {
    const pricing = fieldOf(endpoint.value, 'pricing')
    if (!Value.Check(PricingSchema, pricing)) continue
    for (const [kind, text] of Object.entries(pricing)) {
      try {
        parsePrice(text)
      } catch (error) {
        problems.push(`${endpoint.path}.pricing.${kind}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }
  return problems
}

function endpointsOf(models: readonly unknown[]): Endpoint[] {
  return models.flatMap((model, modelIndex) =>
    (listAt(model, 'endpoints') ?? []).map((value, index) => ({
      path: `models[${modelIndex}].endpoints[${index}]`,
      value,
    })),
  )
}

/** The list under `key`: empty when absent, null when present but not a list. */
function listAt(value: unknown, key: string): readonly unknown[] | null {
  const found = fieldOf(value, key)
  if (found === undefined) return []
  return Array.isArray(found) ? found : null
}

function fieldOf(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
