// The generation object of GET /generation and GET /generations (OpenRouter's shape), as the OpenAPI
// document describes it and as the routes serialize it; present-generation.ts builds it.
import { Type, type Static, type TSchema } from 'typebox'

const nullable = <T extends TSchema>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description })
const alwaysNull = (description: string) => Type.Null({ description })

const ProviderResponse = Type.Object({
  status: Type.Integer({ description: "The provider's HTTP status for this attempt" }),
  provider_name: Type.String(),
  endpoint_id: Type.String(),
  latency: Type.Number({ description: 'Milliseconds' }),
  is_byok: Type.Boolean(),
})

export const Generation = Type.Object({
  id: Type.String({ description: 'The generation id (gen-...)' }),
  upstream_id: nullable(Type.String(), "The provider's own id of the answer"),
  total_cost: Type.Number({ description: 'USD billed (0 for a response-cache hit)' }),
  usage: Type.Number({ description: 'USD billed, as total_cost' }),
  cache_discount: alwaysNull('Not reported (null)'),
  unbilled_excess_cost: Type.Number({ description: 'USD the reported usage priced above the reservation' }),
  upstream_inference_cost: alwaysNull('Not reported (null)'),
  created_at: Type.String({ description: 'ISO 8601 date-time' }),
  model: Type.String({ description: 'The model slug, as requested' }),
  app_id: alwaysNull('Not reported (null)'),
  streamed: Type.Boolean(),
  cancelled: Type.Boolean(),
  provider_name: nullable(Type.String(), 'The provider that answered'),
  latency: nullable(Type.Number(), 'Milliseconds to the first byte of the answer'),
  moderation_latency: alwaysNull('Not reported (null)'),
  generation_time: nullable(Type.Number(), 'Milliseconds the generation took'),
  finish_reason: nullable(Type.String(), 'Normalized finish reason'),
  native_finish_reason: nullable(Type.String(), "The provider's finish reason"),
  tokens_prompt: Type.Integer({ description: 'Billable prompt tokens (0 for a response-cache hit)' }),
  tokens_completion: Type.Integer({ description: 'Billable completion tokens (0 for a response-cache hit)' }),
  native_tokens_prompt: Type.Integer(),
  native_tokens_completion: Type.Integer(),
  native_tokens_completion_images: alwaysNull('Not reported (null)'),
  native_tokens_reasoning: Type.Integer(),
  native_tokens_cached: Type.Integer(),
  num_media_prompt: alwaysNull('Not reported (null)'),
  num_input_audio_prompt: alwaysNull('Not reported (null)'),
  num_media_completion: alwaysNull('Not reported (null)'),
  num_search_results: alwaysNull('Not reported (null)'),
  num_fetches: alwaysNull('Not reported (null)'),
  origin: Type.String({ description: 'Always empty' }),
  is_byok: Type.Boolean(),
  api_type: Type.Union([Type.Literal('completions'), Type.Literal('embeddings'), Type.Literal('decisions')]),
  data_region: Type.Literal('global'),
  external_user: nullable(Type.String(), "The request's `user`"),
  http_referer: nullable(Type.String(), "The request's HTTP-Referer header"),
  user_agent: nullable(Type.String(), "The request's User-Agent header"),
  preset_id: nullable(Type.String(), 'The preset the request used'),
  router: alwaysNull('Not reported (null)'),
  service_tier: nullable(Type.String(), 'The service tier the provider reported'),
  web_search_engine: alwaysNull('Not reported (null)'),
  workspace_id: Type.String(),
  request_id: nullable(Type.String(), "The HTTP request's id (X-Request-Id)"),
  session_id: nullable(Type.String(), "The request's session id"),
  response_cache_source_id: nullable(
    Type.String(),
    'On a response-cache hit, the id of the generation whose stored answer was replayed; null otherwise (docs/caching.md)',
  ),
  provider_responses: Type.Array(ProviderResponse, { description: 'Every attempt at a provider, in order' }),
})
export type Generation = Static<typeof Generation>

export const GenerationAnswer = Type.Object({ data: Generation }, { description: "The generation's metadata" })
