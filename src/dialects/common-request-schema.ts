// TypeBox fragments every dialect's request schema shares: model lists, routing preferences, grouping
// and tracing keys, metadata. Objects accept unknown extra fields, as clients send extras.

import { Type } from 'typebox'
import { serviceTiers } from '../domain/inference/request-options.ts'

export const metadataLimits = { pairs: 16, keyLength: 64, valueLength: 512 } as const
export const identifierMaxLength = 256

/**
 * The most items an inference request's lists may hold, each far past what a real client sends; checked by
 * the schema before any item is read, so a body of millions of entries is refused at once. `messages` follows
 * Anthropic's documented per-request maximum; `tools` is 8 times OpenAI's documented 128.
 */
export const requestListLimits = {
  models: 32,
  messages: 100_000,
  tools: 1024,
  stopSequences: 256,
  providerSlugs: 1000,
  plugins: 64,
  transforms: 64,
} as const

const StringList = Type.Array(Type.String(), { maxItems: requestListLimits.providerSlugs })
const PriceLimit = Type.Union([Type.Number(), Type.String()])
const Percentiles = Type.Union([
  Type.Number(),
  Type.Object({
    p50: Type.Optional(Type.Number()),
    p75: Type.Optional(Type.Number()),
    p90: Type.Optional(Type.Number()),
    p99: Type.Optional(Type.Number()),
  }),
])

export const ProviderPreferencesSchema = Type.Object({
  allow_fallbacks: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  require_parameters: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  data_collection: Type.Optional(Type.Union([Type.Enum(['allow', 'deny']), Type.Null()])),
  zdr: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  enforce_distillable_text: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  order: Type.Optional(Type.Union([StringList, Type.Null()])),
  only: Type.Optional(Type.Union([StringList, Type.Null()])),
  ignore: Type.Optional(Type.Union([StringList, Type.Null()])),
  quantizations: Type.Optional(Type.Union([StringList, Type.Null()])),
  sort: Type.Optional(Type.Union([Type.String(), Type.Object({}), Type.Null()])),
  max_price: Type.Optional(
    Type.Union([
      Type.Object({
        prompt: Type.Optional(PriceLimit),
        completion: Type.Optional(PriceLimit),
        image: Type.Optional(PriceLimit),
        request: Type.Optional(PriceLimit),
      }),
      Type.Null(),
    ]),
  ),
  preferred_min_throughput: Type.Optional(Type.Union([Percentiles, Type.Null()])),
  preferred_max_latency: Type.Optional(Type.Union([Percentiles, Type.Null()])),
})

export const TraceSchema = Type.Object({
  trace_id: Type.Optional(Type.String()),
  trace_name: Type.Optional(Type.String()),
  span_name: Type.Optional(Type.String()),
  generation_name: Type.Optional(Type.String()),
  parent_span_id: Type.Optional(Type.String()),
})

/** Key rules (length, no brackets) are checked by decode, which names the key. */
export const MetadataSchema = Type.Record(Type.String(), Type.String({ maxLength: metadataLimits.valueLength }), {
  maxProperties: metadataLimits.pairs,
})

export const PluginsSchema = Type.Array(Type.Object({ id: Type.String({ minLength: 1 }) }), {
  maxItems: requestListLimits.plugins,
})

export const ServiceTierSchema = Type.Union([Type.Enum([...serviceTiers]), Type.Null()])

/** The fields of the OpenRouter extension every dialect accepts. */
export const commonRequestProperties = {
  model: Type.Optional(Type.String({ minLength: 1 })),
  models: Type.Optional(
    Type.Union([Type.Array(Type.String({ minLength: 1 }), { maxItems: requestListLimits.models }), Type.Null()]),
  ),
  provider: Type.Optional(Type.Union([ProviderPreferencesSchema, Type.Null()])),
  session_id: Type.Optional(Type.Union([Type.String({ maxLength: identifierMaxLength }), Type.Null()])),
  user: Type.Optional(Type.Union([Type.String({ maxLength: identifierMaxLength }), Type.Null()])),
  trace: Type.Optional(Type.Union([TraceSchema, Type.Null()])),
  plugins: Type.Optional(Type.Union([PluginsSchema, Type.Null()])),
  route: Type.Optional(Type.Union([Type.Enum(['fallback', 'sort']), Type.Null()])),
  preset: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
  service_tier: Type.Optional(ServiceTierSchema),
  metadata: Type.Optional(Type.Union([MetadataSchema, Type.Null()])),
  stream: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  /** Streaming only: `echo_upstream_body` sends the body sent upstream as the stream's first event. */
  debug: Type.Optional(Type.Union([Type.Object({ echo_upstream_body: Type.Optional(Type.Boolean()) }), Type.Null()])),
}

export const ReasoningEffortSchema = Type.Enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh'])

/** Anthropic's prompt-caching breakpoint on a content block or tool (`ttl` 5m by default). */
export const CacheControlSchema = Type.Object({
  type: Type.Literal('ephemeral'),
  ttl: Type.Optional(Type.Enum(['5m', '1h'])),
})
