// TypeBox schemas of the observability destination routes (api-reference §6). Config is an open object
// here; its per-type rules live in observability/validate-destination-config.ts so every problem is named.
import { Type, type Static } from 'typebox'
import { PageOffset } from '../../http/pagination.ts'
import { destinationTypes } from '../../observability/destination-types.ts'
import { filterFields, filterOperators } from '../../observability/filter-rules.ts'

const OpenObject = Type.Object({}, { additionalProperties: true })

export const FilterRulesSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'Default true' })),
    groups: Type.Array(
      Type.Object(
        {
          logic: Type.Optional(Type.Enum(['and', 'or'], { description: 'How the group joins its rules; default and' })),
          rules: Type.Array(
            Type.Object(
              {
                field: Type.Enum([...filterFields]),
                operator: Type.Enum([...filterOperators]),
                value: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Number()])),
              },
              { additionalProperties: false },
            ),
            { maxItems: 50 },
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: 20, description: 'A trace passes when every group matches' },
    ),
  },
  { additionalProperties: false },
)

const RegionInput = Type.Enum(['global', 'europe', 'us', 'eu'])
const KeyHashes = Type.Union([
  Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { minItems: 1, maxItems: 1000 }),
  Type.Null(),
])
const SamplingRate = Type.Number({ minimum: 0.0001, maximum: 1 })

const commonFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  config: OpenObject,
  api_key_hashes: Type.Optional(KeyHashes),
  broadcast_generation_cost: Type.Optional(Type.Boolean()),
  broadcast_generation_cost_allocation: Type.Optional(Type.Boolean()),
  broadcast_generation_identity: Type.Optional(Type.Boolean()),
  broadcast_generation_request_context: Type.Optional(Type.Boolean()),
  enabled: Type.Optional(Type.Boolean()),
  filter_rules: Type.Optional(Type.Union([FilterRulesSchema, Type.Null()])),
  privacy_mode: Type.Optional(Type.Boolean()),
  regions: Type.Optional(
    Type.Array(RegionInput, { minItems: 1, maxItems: 4, description: 'eu is normalised to europe; default [global]' }),
  ),
  sampling_rate: Type.Optional(SamplingRate),
}

export const CreateDestinationBody = Type.Object(
  {
    ...commonFields,
    type: Type.Enum([...destinationTypes]),
    workspace_id: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
)

export const UpdateDestinationBody = Type.Object(
  {
    ...commonFields,
    name: Type.Optional(commonFields.name),
    config: Type.Optional(OpenObject),
  },
  { additionalProperties: false },
)

export const DestinationParams = Type.Object({ id: Type.String({ minLength: 1 }) })

export const ListDestinationsQuery = Type.Object({
  offset: Type.Optional(PageOffset),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  workspace_id: Type.Optional(Type.String({ minLength: 1 })),
})

export const DeliveryStatus = Type.Object({
  pending: Type.Integer({ description: 'Records waiting to be delivered (including ones being retried)' }),
  failed: Type.Integer({ description: 'Pending records that failed at least once and wait for a retry' }),
  delivered: Type.Integer(),
  dead_lettered: Type.Integer({ description: 'Records given up on after the maximum number of attempts' }),
  last_error: Type.Union([Type.String(), Type.Null()]),
})

export const DestinationSchema = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  type: Type.String(),
  config: OpenObject,
  enabled: Type.Boolean(),
  api_key_hashes: Type.Union([Type.Array(Type.String()), Type.Null()]),
  broadcast_generation_cost: Type.Boolean(),
  broadcast_generation_cost_allocation: Type.Boolean(),
  broadcast_generation_identity: Type.Boolean(),
  broadcast_generation_request_context: Type.Boolean(),
  filter_rules: Type.Union([OpenObject, Type.Null()]),
  privacy_mode: Type.Boolean(),
  regions: Type.Array(Type.String()),
  sampling_rate: Type.Number(),
  created_at: Type.String(),
  updated_at: Type.String(),
  delivery: DeliveryStatus,
})

export const TestEventSchema = Type.Object({
  destination_id: Type.String(),
  type: Type.String(),
  generation_id: Type.String({ description: 'The synthetic generation sent (gen-test-…); it is not stored anywhere' }),
  delivered: Type.Boolean({ description: 'Whether the destination accepted the event' }),
  error: Type.Union(
    [
      Type.Object({
        message: Type.String({ description: "The destination's answer, or why it could not be reached" }),
        status: Type.Union([Type.Integer(), Type.Null()], {
          description: 'The HTTP status the destination answered with; null when it gave none',
        }),
      }),
      Type.Null(),
    ],
    { description: 'Null when delivered' },
  ),
})

const DestinationTypeField = Type.Object({
  name: Type.String({ description: 'The config key (camelCase, as sent)' }),
  required: Type.Boolean(),
  secret: Type.Boolean({ description: 'Encrypted at rest and masked in answers' }),
  url: Type.Boolean({ description: 'An outbound URL, checked against the egress policy' }),
  default: Type.Union([Type.String(), Type.Null()], { description: 'What an absent value means' }),
  values: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'The allowed values, when closed' }),
})

export const DestinationTypeSchema = Type.Object({
  type: Type.String(),
  deliverable: Type.Boolean({
    description: 'Whether this gateway delivers the type; only deliverable types can be created and are listed',
  }),
  config: Type.Array(DestinationTypeField, {
    description: 'The fields of `config`, in order; every type also takes optional `headers` ({string: string})',
  }),
})

export type CreateDestinationBody = Static<typeof CreateDestinationBody>
export type UpdateDestinationBody = Static<typeof UpdateDestinationBody>
export type DestinationWire = Static<typeof DestinationSchema>
export type TestEventWire = Static<typeof TestEventSchema>
export type DestinationTypeWire = Static<typeof DestinationTypeSchema>
