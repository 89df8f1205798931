// Turns a request's model(s) and routing preferences into the ordered list of endpoints to try.
// Pure over its inputs: the catalog, breaker states, live stats and sticky sessions are passed in.
import { GatewayError } from '../../domain/errors.ts'
import type { Catalog, EndpointEntry, ModelEntry, ServiceTier } from '../../domain/catalog.ts'
import type { CircuitBreaker } from './circuit-breaker.ts'
import type { EndpointStats } from './endpoint-stats.ts'
import type { StickySessions } from './sticky-sessions.ts'
import type { ProviderPreferences, RequestedServiceTier, SortBy } from './provider-preferences.ts'
import { isPlainRequest, plainPlan } from './prebuilt-plans.ts'
import type { RouteCandidate, RouteRequest } from './route-request.ts'

export type { RouteCandidate, RouteRequest } from './route-request.ts'

export interface RoutePlan {
  readonly candidates: readonly RouteCandidate[]
  /** Every endpoint considered, for `openrouter_metadata.endpoints`. */
  readonly considered: readonly RouteCandidate[]
  readonly excluded: readonly { readonly endpointId: string; readonly reason: string }[]
}

export interface RoutingState {
  readonly catalog: Catalog
  readonly breaker: CircuitBreaker
  readonly stats: EndpointStats
  readonly sticky: StickySessions
  /** Active private endpoints per workspace (src/inference/catalog/private-endpoint-cache.ts). */
  readonly privateEndpoints?: {
    modelFor(catalog: Pick<Catalog, 'model'>, slug: string, workspaceId: string | undefined): ModelEntry | undefined
  }
}

// Tier order per requested service tier; an empty list means the tier does not affect the order.
const tierPreference: Readonly<Record<Exclude<RequestedServiceTier, null>, readonly ServiceTier[]>> = {
  auto: [],
  default: [],
  scale: [],
  fast: ['priority', 'default', 'ultrafast', 'flex'],
  priority: ['priority', 'default', 'ultrafast', 'flex'],
  ultrafast: ['ultrafast', 'priority', 'default', 'flex'],
  flex: ['flex', 'default', 'priority', 'ultrafast'],
}

const unavailableMessage = 'Every endpoint for this model failed repeatedly and is cooling down; retry shortly'

/** The catalog's model with this slug, or the workspace's private endpoint model of that name. */
export function findModel(
  state: Pick<RoutingState, 'catalog' | 'privateEndpoints'>,
  slug: string,
  workspaceId: string | undefined,
): ModelEntry | undefined {
  return state.privateEndpoints === undefined
    ? state.catalog.model(slug)
    : state.privateEndpoints.modelFor(state.catalog, slug, workspaceId)
}

export function planRoute(request: RouteRequest, state: RoutingState): RoutePlan {
  const excluded: { endpointId: string; reason: string }[] = []
  const considered: RouteCandidate[] = []
  const candidates: RouteCandidate[] = []
  const preferences = request.provider ?? {}
  for (const slug of request.models) {
    const model = findModel(state, slug, request.workspaceId)
    if (model === undefined) {
      if (slug === request.models[0])
        throw new GatewayError(
          'not_found',
          `Model "${slug}" does not exist; GET /api/v1/models lists the available models`,
        )
      continue
    }
    if (model.kind !== request.kind) {
      throw new GatewayError(
        'invalid_request',
        `Model "${slug}" is ${model.kind === 'embedding' ? 'an embedding model' : 'a text model'} and cannot serve this route`,
      )
    }
    if (model.endpoints.length > 0 && isPlainRequest(request)) {
      const plain = plainPlan(model, state.breaker)
      if (plain.candidates.length === 0) throw new GatewayError('unavailable', unavailableMessage)
      return { candidates: plain.candidates, considered: plain.considered, excluded: [] }
    }
    const eligible = model.endpoints.filter((endpoint) => {
      considered.push({ model, endpoint })
      const reason = exclusionReason(endpoint, preferences, request.usedParameters ?? [])
      if (reason !== null) excluded.push({ endpointId: endpoint.id, reason })
      return reason === null
    })
    const ordered = orderEndpoints(eligible, request, state)
    const limited = preferences.allow_fallbacks === false ? ordered.slice(0, 1) : ordered
    candidates.push(...limited.map((endpoint) => ({ model, endpoint })))
  }
  if (candidates.length === 0) {
    const reasons = [...new Set(excluded.map((entry) => entry.reason))].join('; ')
    throw new GatewayError(
      'not_found',
      `No endpoints found for ${request.models.join(', ')} that match the request${reasons === '' ? '' : `: ${reasons}`}`,
    )
  }
  const healthy = candidates.filter((candidate) => state.breaker.state(candidate.endpoint.id) !== 'open')
  if (healthy.length === 0) {
    throw new GatewayError('unavailable', unavailableMessage)
  }
  return { candidates: healthy, considered, excluded }
}

function exclusionReason(
  endpoint: EndpointEntry,
  preferences: ProviderPreferences,
  used: readonly string[],
): string | null {
  const provider = endpoint.provider.slug
  if (preferences.only !== undefined && !preferences.only.includes(provider))
    return `provider ${provider} is not in provider.only`
  if (preferences.ignore?.includes(provider) === true) return `provider ${provider} is in provider.ignore`
  if (preferences.data_collection === 'deny' && endpoint.provider.dataCollection === 'allow')
    return `provider ${provider} may collect data (provider.data_collection is deny)`
  if (preferences.zdr === true && !endpoint.provider.zdr)
    return `provider ${provider} is not zero-data-retention (provider.zdr)`
  if (preferences.require_parameters === true) {
    const missing = used.filter((parameter) => !endpoint.supportedParameters.includes(parameter))
    if (missing.length > 0) return `${endpoint.id} does not support ${missing.join(', ')} (provider.require_parameters)`
  }
  const maxPrice = preferences.max_price
  if (maxPrice !== undefined) {
    if (maxPrice.prompt !== undefined && endpoint.pricing.prompt > perMillionToAtto(maxPrice.prompt))
      return `${endpoint.id} prompt price exceeds provider.max_price.prompt`
    if (maxPrice.completion !== undefined && endpoint.pricing.completion > perMillionToAtto(maxPrice.completion))
      return `${endpoint.id} completion price exceeds provider.max_price.completion`
    if (maxPrice.request !== undefined && endpoint.pricing.request > BigInt(Math.round(maxPrice.request * 1e18)))
      return `${endpoint.id} request price exceeds provider.max_price.request`
  }
  return null
}

/** USD per million tokens -> atto-dollars per token (1e-18 USD). */
function perMillionToAtto(usdPerMillion: number): bigint {
  return BigInt(Math.round(usdPerMillion * 1e12))
}

function orderEndpoints(
  endpoints: readonly EndpointEntry[],
  request: RouteRequest,
  state: RoutingState,
): EndpointEntry[] {
  const preferences = request.provider ?? {}
  const sort =
    typeof preferences.sort === 'string' ? preferences.sort : (preferences.sort?.by ?? request.defaultSort ?? null)
  const tiers = tierPreference[request.serviceTier ?? 'auto']
  const order = preferences.order ?? []
  const rank = (endpoint: EndpointEntry): number[] => {
    const ordered = order.indexOf(endpoint.provider.slug)
    const breaker = state.breaker.state(endpoint.id) === 'closed' ? 0 : 1
    return [
      ordered === -1 ? order.length : ordered,
      tiers.length === 0 ? 0 : tiers.indexOf(endpoint.serviceTier),
      breaker,
      sortKey(endpoint, sort, state.stats),
    ]
  }
  const ranked = endpoints.map((endpoint, index) => ({ endpoint, key: [...rank(endpoint), index] }))
  ranked.sort((a, b) => compareKeys(a.key, b.key))
  const result = ranked.map((entry) => entry.endpoint)
  const stickyId = request.sessionKey == null ? undefined : state.sticky.get(request.sessionKey)
  const stickyIndex = result.findIndex((endpoint) => endpoint.id === stickyId)
  if (stickyIndex > 0 && order.length === 0 && state.breaker.state(stickyId!) === 'closed') {
    const [sticky] = result.splice(stickyIndex, 1)
    result.unshift(sticky!)
  }
  return result
}

function sortKey(endpoint: EndpointEntry, sort: SortBy | null, stats: EndpointStats): number {
  if (sort === 'throughput') return -(stats.get(endpoint.id).tokensPerSecond ?? 0)
  if (sort === 'latency') return stats.get(endpoint.id).latencyMs ?? Number.MAX_SAFE_INTEGER
  // price (also the default): prompt + completion per token, as a float only for ordering
  return Number(endpoint.pricing.prompt + endpoint.pricing.completion)
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < a.length; index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0)
    if (difference !== 0) return difference
  }
  return 0
}
