// Guardrails on a call, in order: content filters on the input (block -> 403, redact before any
// upstream or stored content sees the text, flag -> recorded), then the routing rules (allowed/ignored
// models and providers, data regions, ZDR) that filter the candidates; budgets are reserved with the
// call (see budget-scopes.ts).
import { GatewayError } from '../../domain/errors.ts'
import type { CanonicalCall } from '../../domain/inference/call.ts'
import type { ContentPart, Message } from '../../domain/inference/message.ts'
import {
  ContentFilterEngine,
  type ContentFilterFinding,
  type ScanMessage,
} from '../../guardrails/content-filter-engine.ts'
import { isModelAllowed, isProviderAllowed, type EffectiveRules } from '../../guardrails/effective-rules.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { ZdrFamily } from '../../domain/inference/zdr-family.ts'
import { providerDescriptor } from '../../providers/registry.ts'
import type { RoutePlan } from '../routing/plan-route.ts'

type Call = Omit<CanonicalCall, 'model'>

export function filterCallContent(
  call: Call,
  rules: EffectiveRules,
): { call: Call; findings: readonly ContentFilterFinding[] } {
  if (rules.contentFilters.length === 0) return { call, findings: [] }
  const engine = new ContentFilterEngine(rules.contentFilters)
  const slots: { message: number; part: number | null }[] = []
  const scan: ScanMessage[] = []
  call.messages.forEach((message, index) => {
    if (typeof message.content === 'string') {
      slots.push({ message: index, part: null })
      scan.push({ role: message.role, text: message.content })
      return
    }
    message.content.forEach((part, partIndex) => {
      if (part.type !== 'text') return
      slots.push({ message: index, part: partIndex })
      scan.push({ role: message.role, text: part.text })
    })
  })
  const outcome = engine.apply(scan)
  const messages = call.messages.map((message) => ({ ...message })) as Message[]
  outcome.messages.forEach((scanned, slotIndex) => {
    const slot = slots[slotIndex]!
    const message = messages[slot.message]!
    if (slot.part === null) {
      messages[slot.message] = { ...message, content: scanned.text } as Message
      return
    }
    const parts = [...(message.content as readonly ContentPart[])]
    parts[slot.part] = { type: 'text', text: scanned.text }
    messages[slot.message] = { ...message, content: parts } as Message
  })
  return { call: { ...call, messages }, findings: outcome.findings }
}

/** Which provider family a ZDR rule names: OpenAI and xAI by provider slug, else the family its API declares. */
function zdrFamily(endpoint: EndpointEntry): ZdrFamily {
  if (endpoint.provider.slug === 'openai') return 'openai'
  if (endpoint.provider.slug === 'xai') return 'xai'
  return providerDescriptor(endpoint.provider.api).zdrFamily
}

function refusal(endpoint: EndpointEntry, rules: EffectiveRules): string | null {
  if (!isModelAllowed(rules, endpoint.modelSlug)) return `model ${endpoint.modelSlug} is not allowed`
  if (!isProviderAllowed(rules, endpoint.provider.slug)) return `provider ${endpoint.provider.slug} is not allowed`
  if (rules.allowedDataRegions !== null && !rules.allowedDataRegions.includes(endpoint.provider.region))
    return `provider ${endpoint.provider.slug} serves region ${endpoint.provider.region}, outside the allowed data regions`
  if (rules.enforceZdr[zdrFamily(endpoint)] && !endpoint.provider.zdr)
    return `provider ${endpoint.provider.slug} is not zero-data-retention`
  return null
}

/** Drops candidates the guardrails forbid; none left -> 403 naming the guardrails and the reasons. */
export function filterPlanByGuardrails(plan: RoutePlan, rules: EffectiveRules): RoutePlan {
  if (rules.guardrailIds.length === 0) return plan
  const reasons: string[] = []
  const candidates = plan.candidates.filter((candidate) => {
    const reason = refusal(candidate.endpoint, rules)
    if (reason !== null) reasons.push(reason)
    return reason === null
  })
  if (candidates.length === 0) {
    throw new GatewayError(
      'forbidden',
      `Guardrail ${rules.guardrailIds.join(', ')} refuses every endpoint for this request: ${[...new Set(reasons)].join('; ')}`,
    )
  }
  return { ...plan, candidates }
}
