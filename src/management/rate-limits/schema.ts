// Wire schemas of the rate-limit rule routes. They validate requests and feed OpenAPI.
import { Type, type Static, type TSchema } from 'typebox'

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
const PerMinute = Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000_000 }))

export const RateLimitRuleObject = Type.Object({
  id: Type.String(),
  scope: Type.Union([Type.Literal('key'), Type.Literal('workspace')]),
  key_hash: Nullable(Type.String()),
  workspace_id: Type.String(),
  model: Nullable(Type.String()),
  requests_per_minute: PerMinute,
  tokens_per_minute: PerMinute,
  created_at: Type.String(),
  updated_at: Type.String(),
})
export type RateLimitRuleObject = Static<typeof RateLimitRuleObject>

export const CreateRateLimitRuleBody = Type.Object(
  {
    key_hash: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    model: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 256 }))),
    requests_per_minute: Type.Optional(PerMinute),
    tokens_per_minute: Type.Optional(PerMinute),
  },
  { additionalProperties: false },
)
export type CreateRateLimitRuleBody = Static<typeof CreateRateLimitRuleBody>

export const UpdateRateLimitRuleBody = Type.Object(
  { requests_per_minute: Type.Optional(PerMinute), tokens_per_minute: Type.Optional(PerMinute) },
  { additionalProperties: false },
)
export type UpdateRateLimitRuleBody = Static<typeof UpdateRateLimitRuleBody>

export const ListRateLimitRulesQuery = Type.Object({
  key_hash: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
})
export type ListRateLimitRulesQuery = Static<typeof ListRateLimitRulesQuery>

export const RateLimitRuleParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) })
