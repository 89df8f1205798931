// The catalog in OpenRouter's public shapes (GET /models, /models/{author}/{slug}/endpoints, /providers).
import type { EndpointEntry, ModelEntry, ProviderEntry } from '../../domain/catalog.ts'

const catalogEpoch = 1_767_225_600 // 2026-01-01T00:00:00Z: the built-in catalog's date

function architecture(model: ModelEntry) {
  return {
    modality: `${model.inputModalities.join('+')}->${model.outputModalities.join('+')}`,
    input_modalities: [...model.inputModalities],
    output_modalities: [...model.outputModalities],
    tokenizer: 'Other',
    instruct_type: null,
  }
}

function pricing(endpoint: EndpointEntry) {
  const text = endpoint.pricingText
  return {
    prompt: text.prompt,
    completion: text.completion,
    request: text.request ?? '0',
    image: '0',
    web_search: '0',
    internal_reasoning: text.internal_reasoning ?? text.completion,
    ...(text.input_cache_read === undefined ? {} : { input_cache_read: text.input_cache_read }),
    ...(text.input_cache_write === undefined ? {} : { input_cache_write: text.input_cache_write }),
  }
}

function cheapest(model: ModelEntry): EndpointEntry {
  return [...model.endpoints].sort((a, b) =>
    Number(a.pricing.prompt + a.pricing.completion - (b.pricing.prompt + b.pricing.completion)),
  )[0]!
}

export function presentModel(model: ModelEntry) {
  const top = cheapest(model)
  return {
    id: model.slug,
    canonical_slug: model.slug,
    name: model.name,
    created: catalogEpoch,
    description: model.description,
    context_length: model.contextLength,
    architecture: architecture(model),
    pricing: pricing(top),
    top_provider: {
      context_length: top.contextLength,
      max_completion_tokens: top.maxOutputTokens,
      is_moderated: false,
    },
    per_request_limits: null,
    supported_parameters: [...new Set(model.endpoints.flatMap((endpoint) => endpoint.supportedParameters))].sort(),
    default_parameters: null,
    supported_voices: null,
    links: { details: `/api/v1/models/${model.slug}/endpoints` },
  }
}

export function presentEndpoint(model: ModelEntry, endpoint: EndpointEntry) {
  const tools = endpoint.supportedParameters.includes('tools')
  return {
    name: `${endpoint.provider.name} | ${model.slug}`,
    model_id: model.slug,
    model_name: model.name,
    context_length: endpoint.contextLength,
    pricing: pricing(endpoint),
    provider_name: endpoint.provider.name,
    tag: endpoint.provider.slug,
    quantization: null,
    max_completion_tokens: endpoint.maxOutputTokens,
    max_prompt_tokens: null,
    supported_parameters: [...endpoint.supportedParameters],
    status: 0,
    uptime_last_30m: null,
    uptime_last_5m: null,
    uptime_last_1d: null,
    latency_last_30m: null,
    throughput_last_30m: null,
    supports_implicit_caching: endpoint.pricing.inputCacheRead !== endpoint.pricing.prompt,
    supports_tool_choice: { auto: tools, function: tools, none: tools, required: tools },
    supports_voice_cloning: false,
  }
}

export function presentModelEndpoints(model: ModelEntry) {
  return {
    id: model.slug,
    name: model.name,
    created: catalogEpoch,
    description: model.description,
    architecture: architecture(model),
    endpoints: model.endpoints.map((endpoint) => presentEndpoint(model, endpoint)),
  }
}

export function presentProvider(provider: ProviderEntry) {
  return {
    name: provider.name,
    slug: provider.slug,
    privacy_policy_url: null,
    terms_of_service_url: null,
    status_page_url: null,
  }
}
