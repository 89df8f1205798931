// TypeBox schemas of the private endpoint routes (spec "Private endpoint", api-reference §7).
import { Type, type Static } from 'typebox'

const Price = Type.String({
  pattern: '^\\d+(\\.\\d+)?$',
  maxLength: 40,
  description: 'USD per token, a decimal string',
})
export const PricingSchema = Type.Object({ prompt: Price, completion: Price }, { additionalProperties: false })
const Region = Type.Union([Type.Enum(['global', 'europe', 'us']), Type.Null()])
const Zdr = Type.Union([Type.Boolean(), Type.Null()])
const Slug = Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\s]+$' })
const BaseUrl = Type.String({ minLength: 1, maxLength: 2048 })
const ApiKey = Type.String({
  minLength: 1,
  maxLength: 8192,
  description: 'Credential the gateway sends to the endpoint (stored encrypted, never returned)',
})

export const CreatePrivateEndpointBody = Type.Object(
  {
    model_permaslug: Slug,
    provider_slug: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'openai-chat, openai-responses, anthropic, gemini or a configured provider slug',
    }),
    upstream_model_id: Type.String({ minLength: 1, maxLength: 200 }),
    base_url: BaseUrl,
    declared_region: Type.Optional(Region),
    declared_zdr: Type.Optional(Zdr),
    pricing: PricingSchema,
    api_key: Type.Optional(ApiKey),
    activate: Type.Optional(
      Type.Object({ workspace_id: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
)

export const UpdatePrivateEndpointBody = Type.Object(
  {
    upstream_model_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    base_url: Type.Optional(BaseUrl),
    declared_region: Type.Optional(Region),
    declared_zdr: Type.Optional(Zdr),
  },
  { additionalProperties: false },
)

export const PricingBody = Type.Object({ pricing: PricingSchema }, { additionalProperties: false })
export const CredentialBody = Type.Object(
  { api_key: Type.Union([ApiKey, Type.Null()]) },
  { additionalProperties: false },
)
export const ValidateBody = Type.Object(
  { workspace_id: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
)
export const EndpointParams = Type.Object({ id: Type.String({ minLength: 1 }) })
export const DeleteQuery = Type.Object({ draft_only: Type.Optional(Type.Boolean()) })

const summaryFields = {
  id: Type.String(),
  status: Type.Enum(['draft', 'active', 'disabled']),
  model_permaslug: Type.String(),
  model_slug: Type.String(),
  model_name: Type.String(),
  provider_name: Type.String(),
  created_at: Type.String(),
}
const declaredFields = { declared_region: Type.Union([Type.String(), Type.Null()]), declared_zdr: Zdr }

export const SummarySchema = Type.Object(summaryFields)
export const ManagedSchema = Type.Object({ ...summaryFields, ...declaredFields })
export const FullSchema = Type.Object({
  id: Type.String(),
  status: summaryFields.status,
  model_permaslug: Type.String(),
  model_slug: Type.String(),
  model_name: Type.String(),
  provider_name: Type.String(),
  provider_slug: Type.String(),
  base_url: Type.String(),
  upstream_model_id: Type.String(),
  ...declaredFields,
  pricing: Type.Object({ prompt: Type.String(), completion: Type.String() }),
})

const CheckSchema = Type.Object({
  name: Type.String(),
  passed: Type.Boolean(),
  reason: Type.Optional(Type.String()),
  upstream_status: Type.Optional(Type.Integer()),
  upstream_message: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  actual_model: Type.Optional(Type.Union([Type.String(), Type.Null()])),
})
// Immutable types the checks as a readonly array, as the validation holds them; the JSON Schema is unchanged.
export const ValidationSchema = Type.Object({
  passed: Type.Boolean(),
  checks: Type.Immutable(Type.Array(CheckSchema)),
})

export type CreatePrivateEndpointBody = Static<typeof CreatePrivateEndpointBody>
export type UpdatePrivateEndpointBody = Static<typeof UpdatePrivateEndpointBody>
export type PricingInput = Static<typeof PricingSchema>
export type SummaryWire = Static<typeof SummarySchema>
export type ManagedWire = Static<typeof ManagedSchema>
export type FullWire = Static<typeof FullSchema>
