// Wire schemas of the API key routes (api-reference §3; spec "API key"). They also feed the OpenAPI document.
import { Type, type Static } from 'typebox'
import { PageOffset } from '../../http/pagination.ts'
import { responseCacheBodyFields, responseCacheFields } from '../response-cache-fields.ts'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])
const LimitReset = Type.Enum(['daily', 'weekly', 'monthly'])

const usageFields = {
  usage: Type.Number({ description: 'USD spent by the key, all time (non-BYOK)' }),
  usage_daily: Type.Number(),
  usage_weekly: Type.Number(),
  usage_monthly: Type.Number(),
  byok_usage: Type.Number({ description: 'USD of bring-your-own-key usage, all time' }),
  byok_usage_daily: Type.Number(),
  byok_usage_weekly: Type.Number(),
  byok_usage_monthly: Type.Number(),
}

const limitFields = {
  limit: Nullable(Type.Number({ description: 'Spending limit in USD; null for none' })),
  limit_remaining: Nullable(
    Type.Number({ description: 'USD left in the current limit window; null when the key has no limit' }),
  ),
  limit_reset: Nullable(LimitReset),
  include_byok_in_limit: Type.Boolean(),
}

/** A rate-limit rule set on the key or its workspace (POST /api/v1/rate-limits), shown on the key object. */
const KeyRateLimit = Type.Object({
  id: Type.String(),
  model: Nullable(Type.String({ description: 'null: every model' })),
  requests_per_minute: Nullable(Type.Integer()),
  tokens_per_minute: Nullable(Type.Integer()),
})

export const ApiKey = Type.Object({
  hash: Type.String(),
  name: Type.String(),
  label: Type.String(),
  disabled: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Nullable(Type.String()),
  expires_at: Nullable(Type.String()),
  last_used_at: Nullable(Type.String()),
  creator_user_id: Nullable(Type.String()),
  workspace_id: Type.String(),
  external_user: Nullable(Type.Object({ user: Type.String() })),
  ...limitFields,
  ...usageFields,
  ...responseCacheFields,
  rate_limits: Type.Array(KeyRateLimit, {
    description:
      "The key's own rate-limit rules; its workspace's rules (workspace_rate_limits) and the YAML defaults apply too",
  }),
  workspace_rate_limits: Type.Array(KeyRateLimit, {
    description:
      "The rate-limit rules of the key's workspace, shared by all its keys: they apply to this key's calls as well as its own",
  }),
})

export const CurrentKey = Type.Object({
  label: Type.String(),
  ...limitFields,
  ...usageFields,
  is_free_tier: Type.Boolean(),
  is_management_key: Type.Boolean(),
  is_provisioning_key: Type.Boolean({ description: 'Deprecated alias of is_management_key' }),
  creator_user_id: Nullable(Type.String()),
  expires_at: Nullable(Type.String()),
  organization_id: Nullable(Type.String()),
  workspace_id: Nullable(Type.String()),
  allowed_data_regions: Type.Array(Type.String()),
  free_model_daily_requests: Type.Object({ limit: Type.Integer(), remaining: Type.Integer(), used: Type.Integer() }),
  rate_limit: Type.Object({ requests: Type.Integer(), interval: Type.String(), note: Type.String() }),
})

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    creator_user_id: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    expires_at: Type.Optional(
      Nullable(Type.String({ description: 'UTC with seconds: YYYY-MM-DDTHH:MM:SSZ (fractional seconds allowed)' })),
    ),
    external: Type.Optional(
      Type.Object(
        {
          user: Type.String({ minLength: 1, maxLength: 512 }),
          api_key: Type.Optional(
            Type.String({ minLength: 32, maxLength: 512, description: 'Stored only as its SHA-256; never returned' }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    include_byok_in_limit: Type.Optional(Type.Boolean()),
    limit: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
    limit_reset: Type.Optional(Nullable(LimitReset)),
    workspace_id: Type.Optional(Type.String({ minLength: 1 })),
    ...responseCacheBodyFields,
  },
  { additionalProperties: false },
)

export const UpdateKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    disabled: Type.Optional(Type.Boolean()),
    limit: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
    limit_reset: Type.Optional(Nullable(LimitReset)),
    include_byok_in_limit: Type.Optional(Type.Boolean()),
    ...responseCacheBodyFields,
  },
  { additionalProperties: false },
)

export const ListKeysQuery = Type.Object({
  offset: Type.Optional(PageOffset),
  include_disabled: Type.Optional(Type.Boolean()),
  workspace_id: Type.Optional(Type.String({ minLength: 1 })),
})

export const KeyHashParams = Type.Object({ hash: Type.String({ minLength: 1 }) })

export type ApiKey = Static<typeof ApiKey>
export type CurrentKey = Static<typeof CurrentKey>
export type CreateKeyBody = Static<typeof CreateKeyBody>
export type UpdateKeyBody = Static<typeof UpdateKeyBody>
export type ListKeysQuery = Static<typeof ListKeysQuery>
