// The YAML config file's schema. Strict: unknown keys are errors. Defaults are applied by the loader.
import { Type, type Static } from 'typebox'
import { ServerToolsConfigSchema } from './server-tools-config.ts'
import { providerApis } from '../domain/inference/provider-api.ts'

const strict = { additionalProperties: false } as const
const NullablePositiveInt = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])
const DecimalString = Type.String({ pattern: '^\\d+(\\.\\d+)?$' })

export const ProviderApiSchema = Type.Enum(providerApis)
export const ProviderSlugSchema = Type.String({ pattern: '^[a-z0-9][a-z0-9._-]*$', maxLength: 100 })
export const ModelSlugSchema = Type.String({ pattern: '^[A-Za-z0-9._~-]+/[A-Za-z0-9._~:-]+$' })
export const EndpointProviderSchema = Type.String({ minLength: 1 })

/** One credential of a provider's weighted pool (docs/providers.md "Credential pools"). */
export const ProviderCredentialSchema = Type.Object(
  {
    api_key: Type.String({ minLength: 1 }),
    name: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9._-]*$', maxLength: 100 })),
    weight: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    requests_per_minute: Type.Optional(Type.Integer({ minimum: 1 })),
    tokens_per_minute: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  strict,
)

export const ProviderConfigSchema = Type.Object(
  {
    slug: ProviderSlugSchema,
    name: Type.Optional(Type.String({ minLength: 1 })),
    api: ProviderApiSchema,
    base_url: Type.String({ minLength: 1 }),
    api_key: Type.Optional(Type.String()),
    credentials: Type.Optional(Type.Array(ProviderCredentialSchema, { minItems: 1, maxItems: 100 })),
    retry: Type.Optional(
      Type.Object(
        {
          max_attempts: Type.Integer({ minimum: 2, maximum: 10 }),
          base_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 60_000 })),
          max_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 300_000 })),
        },
        strict,
      ),
    ),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    options: Type.Optional(Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), Type.String())),
    data_collection: Type.Optional(Type.Enum(['allow', 'deny'])),
    zdr: Type.Optional(Type.Boolean()),
    region: Type.Optional(Type.Enum(['global', 'europe', 'us'])),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  strict,
)

export const PricingSchema = Type.Object(
  {
    prompt: DecimalString,
    completion: DecimalString,
    request: Type.Optional(DecimalString),
    input_cache_read: Type.Optional(DecimalString),
    input_cache_write: Type.Optional(DecimalString),
    internal_reasoning: Type.Optional(DecimalString),
  },
  strict,
)

export const ModelEndpointConfigSchema = Type.Object(
  {
    provider: EndpointProviderSchema,
    upstream_model_id: Type.String({ minLength: 1 }),
    pricing: PricingSchema,
    context_length: Type.Optional(Type.Integer({ minimum: 1 })),
    max_output_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
    service_tier: Type.Optional(Type.Enum(['default', 'priority', 'flex', 'ultrafast'])),
    supported_parameters: Type.Optional(Type.Array(Type.String())),
  },
  strict,
)

export const ModelConfigSchema = Type.Object(
  {
    slug: ModelSlugSchema,
    name: Type.Optional(Type.String({ minLength: 1 })),
    kind: Type.Optional(Type.Enum(['text', 'embedding'])),
    context_length: Type.Optional(Type.Integer({ minimum: 1 })),
    description: Type.Optional(Type.String()),
    input_modalities: Type.Optional(Type.Array(Type.String())),
    output_modalities: Type.Optional(Type.Array(Type.String())),
    endpoints: Type.Array(ModelEndpointConfigSchema, { minItems: 1 }),
  },
  strict,
)

const RateLimitPair = Type.Object(
  { requests_per_minute: Type.Optional(NullablePositiveInt), tokens_per_minute: Type.Optional(NullablePositiveInt) },
  strict,
)

export const ConfigFileSchema = Type.Object(
  {
    server: Type.Optional(
      Type.Object(
        {
          regional_hostnames: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
          body_limit_bytes: Type.Optional(Type.Integer({ minimum: 1024 })),
          trust_proxy: Type.Optional(Type.Boolean()),
        },
        strict,
      ),
    ),
    metrics: Type.Optional(
      Type.Object(
        {
          require_management_key: Type.Optional(Type.Boolean()),
          port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
          host: Type.Optional(Type.String({ minLength: 1 })),
        },
        strict,
      ),
    ),
    console: Type.Optional(Type.Object({ assets_dir: Type.Optional(Type.String({ minLength: 1 })) }, strict)),
    egress: Type.Optional(Type.Object({ allow_private_networks: Type.Optional(Type.Boolean()) }, strict)),
    server_tools: Type.Optional(ServerToolsConfigSchema),
    interns: Type.Optional(
      Type.Object(
        {
          workspaces: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
          domain: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          runtime: Type.Optional(Type.Boolean()),
        },
        strict,
      ),
    ),
    vault: Type.Optional(Type.Object({ writes_disabled: Type.Optional(Type.Boolean()) }, strict)),
    credits: Type.Optional(Type.Object({ enforce: Type.Optional(Type.Boolean()) }, strict)),
    embeddings: Type.Optional(Type.Object({ max_input_chars: Type.Optional(Type.Integer({ minimum: 1 })) }, strict)),
    systemone: Type.Optional(
      Type.Object({ namespace: Type.Optional(Type.String({ minLength: 1, pattern: '^[^/]+/$' })) }, strict),
    ),
    alignment: Type.Optional(
      Type.Object({ evaluator_model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, strict),
    ),
    batches: Type.Optional(
      Type.Object(
        {
          poll_interval_ms: Type.Optional(Type.Integer({ minimum: 1 })),
          concurrency: Type.Optional(Type.Integer({ minimum: 1 })),
          per_batch_concurrency: Type.Optional(Type.Integer({ minimum: 1 })),
          lease_ms: Type.Optional(Type.Integer({ minimum: 1000 })),
          max_body_bytes: Type.Optional(Type.Integer({ minimum: 1024 })),
          max_requests: Type.Optional(Type.Integer({ minimum: 1 })),
          webhook_secret: Type.Optional(Type.String({ minLength: 1 })),
        },
        strict,
      ),
    ),
    rate_limits: Type.Optional(
      Type.Object(
        {
          per_key: Type.Optional(RateLimitPair),
          per_organization: Type.Optional(RateLimitPair),
          management: Type.Optional(Type.Object({ requests_per_minute: Type.Optional(NullablePositiveInt) }, strict)),
        },
        strict,
      ),
    ),
    providers: Type.Optional(Type.Array(ProviderConfigSchema)),
    models: Type.Optional(Type.Array(ModelConfigSchema)),
    generations: Type.Optional(
      Type.Object({ content_retention_days: Type.Optional(Type.Integer({ minimum: 1 })) }, strict),
    ),
    durability: Type.Optional(Type.Object({ write_behind: Type.Optional(Type.Boolean()) }, strict)),
    cache: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          default_ttl_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
          max_ttl_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
          max_entry_bytes: Type.Optional(Type.Integer({ minimum: 1024 })),
          memory_max_bytes: Type.Optional(Type.Integer({ minimum: 1024 })),
          memory_max_entries: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        strict,
      ),
    ),
    observability: Type.Optional(
      Type.Object(
        {
          delivery: Type.Optional(
            Type.Object(
              {
                direct: Type.Optional(Type.Boolean()),
                batch_delay_ms: Type.Optional(Type.Integer({ minimum: 0 })),
                spill_after_ms: Type.Optional(Type.Integer({ minimum: 1 })),
                poll_interval_ms: Type.Optional(Type.Integer({ minimum: 1 })),
                max_attempts: Type.Optional(Type.Integer({ minimum: 1 })),
                backoff_base_ms: Type.Optional(Type.Integer({ minimum: 1 })),
                backoff_max_ms: Type.Optional(Type.Integer({ minimum: 1 })),
                concurrency_per_destination: Type.Optional(Type.Integer({ minimum: 1 })),
                lease_ms: Type.Optional(Type.Integer({ minimum: 1 })),
                request_timeout_ms: Type.Optional(Type.Integer({ minimum: 1 })),
                batch_size: Type.Optional(Type.Integer({ minimum: 1 })),
              },
              strict,
            ),
          ),
        },
        strict,
      ),
    ),
  },
  strict,
)

export type ConfigFile = Static<typeof ConfigFileSchema>
export type ProviderConfig = Static<typeof ProviderConfigSchema>
export type ProviderCredentialConfig = Static<typeof ProviderCredentialSchema>
export type ModelConfig = Static<typeof ModelConfigSchema>
