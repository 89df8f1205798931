// Pure: which destinations a generation goes to, and what each one receives.
import { hash } from 'node:crypto'
import { stableFraction } from '../domain/stable-fraction.ts'
import type { Destination } from './destination.ts'
import type { CostAllocation, GenerationTrace } from './generation-trace.ts'
import type { DestinationRecord } from './destination-record.ts'
import { matchesFilterRules, type FieldValues } from './filter-rules.ts'

const nanosPerDollar = 1e9

function toNanos(usd: number): number {
  return Math.round(usd * nanosPerDollar)
}

/** A fraction in [0, 1) from a stable hash of the generation and destination ids: a replay decides the same. */
export function samplingPoint(generationId: string, destinationId: string): number {
  return stableFraction(`${generationId}\u0000${destinationId}`)
}

export function isSampled(trace: GenerationTrace, destination: Destination): boolean {
  return destination.samplingRate >= 1 || samplingPoint(trace.generationId, destination.id) < destination.samplingRate
}

export function filterFieldValues(trace: GenerationTrace): FieldValues {
  return {
    model: trace.model,
    provider: trace.provider,
    session_id: trace.sessionId,
    user_id: trace.user,
    api_key_name: trace.apiKeyName,
    finish_reason: trace.finishReason,
    input: trace.input.messages.map((message) => message.content).join('\n'),
    output: trace.output.text,
    total_cost: trace.costUsd,
    total_tokens: trace.usage.promptTokens + trace.usage.completionTokens,
    prompt_tokens: trace.usage.promptTokens,
    completion_tokens: trace.usage.completionTokens,
  }
}

export function shouldReceive(trace: GenerationTrace, destination: Destination): boolean {
  if (!destination.enabled || destination.workspaceId !== trace.workspaceId) return false
  if (destination.apiKeyHashes !== null && !destination.apiKeyHashes.includes(trace.apiKeyHash)) return false
  if (!destination.regions.includes(trace.region ?? 'global')) return false
  const rules = destination.filterRules
  if (rules !== null && rules.enabled && !matchesFilterRules(rules, filterFieldValues(trace))) return false
  return isSampled(trace, destination)
}

/** The allocation, when its parts add up to the billed cost to the nano-dollar. */
export function reconciledAllocation(allocation: CostAllocation | null, costUsd: number): CostAllocation | null {
  if (allocation === null) return null
  const sum =
    toNanos(allocation.prompt) +
    toNanos(allocation.completion) +
    toNanos(allocation.cached) +
    toNanos(allocation.reasoning)
  return sum === toNanos(costUsd) ? allocation : null
}

/**
 * One SHA-256 of the generation id gives both ids: its first 32 hex digits are the trace id, the next
 * 16 the span id. Derived, not random, so a redelivered record (and every destination) carries the same.
 */
function generationDigest(generationId: string): string {
  return hash('sha256', `trace:${generationId}`, 'hex')
}

function traceIdFor(trace: GenerationTrace, digest: string, shareContext: boolean): string {
  const given = trace.requestContext.trace?.trace_id
  if (shareContext && typeof given === 'string' && /^[0-9a-f]{32}$/i.test(given)) return given.toLowerCase()
  return digest.slice(0, 32)
}

export function buildDestinationRecord(trace: GenerationTrace, destination: Destination): DestinationRecord {
  const { usage, timing } = trace
  const digest = generationDigest(trace.generationId)
  const allocation = destination.broadcastGenerationCostAllocation
    ? reconciledAllocation(trace.costAllocation, trace.costUsd)
    : null
  return {
    id: trace.generationId,
    trace_id: traceIdFor(trace, digest, destination.broadcastGenerationRequestContext),
    span_id: digest.slice(32, 48),
    request_id: trace.requestId,
    workspace_id: trace.workspaceId,
    api_key_hash: trace.apiKeyHash,
    model: trace.model,
    provider: trace.provider,
    started_at: timing.startedAt,
    ended_at: timing.endedAt,
    latency_ms: timing.latencyMs,
    time_to_first_token_ms: timing.timeToFirstTokenMs,
    usage: {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.promptTokens + usage.completionTokens,
      cached_tokens: usage.cachedTokens,
      reasoning_tokens: usage.reasoningTokens,
    },
    finish_reason: trace.finishReason,
    session_id: trace.sessionId,
    ...(destination.broadcastGenerationCost ? { cost: trace.costUsd } : {}),
    ...(allocation === null ? {} : { cost_allocation: { ...allocation } }),
    ...(destination.broadcastGenerationIdentity ? { user: trace.user, api_key_name: trace.apiKeyName } : {}),
    ...(destination.broadcastGenerationRequestContext
      ? { request_context: { headers: { ...trace.requestContext.headers }, trace: trace.requestContext.trace } }
      : {}),
    ...(destination.privacyMode
      ? {}
      : {
          input: { messages: trace.input.messages.map((message) => ({ ...message })) },
          output: { completion: trace.output.text, reasoning: trace.output.reasoning },
        }),
  }
}
