// Decodes the request-level options every dialect shares, after the schema check, and applies the
// rules a schema cannot express (metadata key rules).

import { GatewayError } from '../domain/errors.ts'
import type { ReasoningConfig } from '../domain/inference/call.ts'
import { defaultMaxToolCalls } from '../domain/inference/request-options.ts'
import type { PluginSetting, RequestOptions, RouteAlias, ServiceTier } from '../domain/inference/request-options.ts'
import { metadataLimits } from './common-request-schema.ts'
import { dropUndefined } from '../domain/drop-undefined.ts'

/** The shared fields of a schema-checked body. */
export interface CommonRequestFields {
  readonly model?: string
  readonly models?: readonly string[] | null
  readonly provider?: Readonly<Record<string, unknown>> | null
  readonly session_id?: string | null
  readonly user?: string | null
  readonly trace?: Readonly<Record<string, unknown>> | null
  readonly plugins?: readonly PluginSetting[] | null
  readonly route?: RouteAlias | null
  readonly preset?: string | null
  readonly service_tier?: ServiceTier | null
  readonly metadata?: Readonly<Record<string, string>> | null
  readonly stream?: boolean | null
  readonly debug?: { readonly echo_upstream_body?: boolean } | null
}

/** `model` then `models`, deduplicated in order. */
export function collectModels(body: Pick<CommonRequestFields, 'model' | 'models'>): string[] {
  const all = [...(body.model === undefined ? [] : [body.model]), ...(body.models ?? [])]
  return [...new Set(all)]
}

export function checkMetadataKeys(metadata: Readonly<Record<string, string>>, field = 'metadata'): void {
  for (const key of Object.keys(metadata)) {
    if (key.length > metadataLimits.keyLength) {
      throw new GatewayError(
        'invalid_request',
        `${field}: key "${key}" is longer than ${metadataLimits.keyLength} characters`,
      )
    }
    if (key.includes('[') || key.includes(']')) {
      throw new GatewayError('invalid_request', `${field}: key "${key}" must not contain "[" or "]"`)
    }
  }
}

/**
 * The options shared by every dialect, with the dialect's own on top (undefined ones dropped; the
 * dialect's win). Merged with Object.assign, not `{ ...common, ...own }`: on Node 20 an object spread
 * followed by more properties gets a new hidden class at every evaluation and its result is promoted.
 */
export function decodeCommonOptions(body: CommonRequestFields, own: Readonly<Record<string, unknown>>): RequestOptions {
  if (body.metadata != null) checkMetadataKeys(body.metadata)
  const options = dropUndefined({
    provider: body.provider ?? undefined,
    session_id: body.session_id ?? undefined,
    user: body.user ?? undefined,
    service_tier: body.service_tier ?? undefined,
    metadata: body.metadata ?? undefined,
    trace: body.trace ?? undefined,
    plugins: body.plugins ?? undefined,
    route: body.route ?? undefined,
    preset: body.preset ?? undefined,
    debug: body.debug ?? undefined,
    max_tool_calls: defaultMaxToolCalls,
  })
  return Object.assign(options, dropUndefined(own)) as unknown as RequestOptions
}

/** The service tier sent upstream: `fast` aliases priority; `ultrafast` falls back to priority. */
export const upstreamServiceTiers: Readonly<Record<ServiceTier, string>> = {
  auto: 'auto',
  default: 'default',
  fast: 'priority',
  flex: 'flex',
  priority: 'priority',
  scale: 'scale',
  ultrafast: 'priority',
}

type WireEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh'

/** A wire effort as canonical reasoning: `none` turns reasoning off, `xhigh` is the highest we know. */
export function effortReasoning(effort: WireEffort): ReasoningConfig {
  if (effort === 'none') return { enabled: false }
  return { effort: effort === 'xhigh' ? 'high' : effort }
}
