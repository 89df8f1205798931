// Pre-built routing for the common request: one model, no provider preferences, no service tier, no
// session, price order (the default). Its candidates depend only on the model's endpoints, which are
// fixed until the catalog is rebuilt (a new ModelEntry), and on the breaker states. So each model's
// price-ordered candidates and its `considered` list are built once, and a request only checks the
// breakers: with every breaker closed it reuses the pre-built arrays as they are.
import type { ModelEntry } from '../../domain/catalog.ts'
import type { CircuitBreaker } from './circuit-breaker.ts'
import type { RouteCandidate, RouteRequest } from './route-request.ts'

interface PrebuiltPlan {
  /** Every endpoint in catalog order (`openrouter_metadata.endpoints`). */
  readonly considered: readonly RouteCandidate[]
  /** Every endpoint, cheapest first (prompt + completion per token), catalog order among equals. */
  readonly byPrice: readonly RouteCandidate[]
}

const prebuilt = new WeakMap<ModelEntry, PrebuiltPlan>()

/** Whether `planRoute` may answer from the pre-built plan: nothing in the request reorders or filters. */
export function isPlainRequest(request: RouteRequest): boolean {
  const tier = request.serviceTier
  return (
    request.models.length === 1 &&
    request.provider === undefined &&
    (tier === undefined || tier === null || tier === 'auto' || tier === 'default' || tier === 'scale') &&
    (request.sessionKey === undefined || request.sessionKey === null) &&
    (request.defaultSort === undefined || request.defaultSort === null || request.defaultSort === 'price')
  )
}

function prebuiltFor(model: ModelEntry): PrebuiltPlan {
  let plan = prebuilt.get(model)
  if (plan === undefined) {
    const considered = model.endpoints.map((endpoint) => ({ model, endpoint }))
    // The general planner's price key, so both order equal-looking prices alike.
    const price = (candidate: RouteCandidate): number =>
      Number(candidate.endpoint.pricing.prompt + candidate.endpoint.pricing.completion)
    const byPrice = considered
      .map((candidate, index) => ({ candidate, index }))
      .sort((a, b) => price(a.candidate) - price(b.candidate) || a.index - b.index)
      .map((entry) => entry.candidate)
    plan = { considered, byPrice }
    prebuilt.set(model, plan)
  }
  return plan
}

/**
 * The plain request's plan, as the general planner would order it: closed breakers first (then
 * half-open), each group by price; endpoints whose breaker is open are left out.
 */
export function plainPlan(
  model: ModelEntry,
  breaker: Pick<CircuitBreaker, 'state'>,
): { candidates: readonly RouteCandidate[]; considered: readonly RouteCandidate[] } {
  const plan = prebuiltFor(model)
  if (plan.byPrice.every((candidate) => breaker.state(candidate.endpoint.id) === 'closed'))
    return { candidates: plan.byPrice, considered: plan.considered }
  const closed = plan.byPrice.filter((candidate) => breaker.state(candidate.endpoint.id) === 'closed')
  const halfOpen = plan.byPrice.filter((candidate) => breaker.state(candidate.endpoint.id) === 'half-open')
  return { candidates: [...closed, ...halfOpen], considered: plan.considered }
}
