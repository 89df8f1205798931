// Wire schemas of the workspace routes (api-reference §4). They validate requests and feed OpenAPI.
import { Type, type Static } from 'typebox'
import { serverToolNames as domainServerToolNames, serverToolPrefix } from '../../domain/inference/request-options.ts'
import { responseCacheBodyFields, responseCacheFields } from '../response-cache-fields.ts'

const serverToolNames = domainServerToolNames.map((name) => serverToolPrefix + name)

export const providerSorts = ['price', 'throughput', 'latency', 'exacto'] as const
export const budgetIntervals = ['daily', 'weekly', 'monthly', 'lifetime'] as const
export type BudgetInterval = (typeof budgetIntervals)[number]

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

export const Workspace = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  description: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Nullable(Type.String()),
  created_by: Nullable(Type.String()),
  default_guardrail_id: Type.String(),
  default_image_model: Nullable(Type.String()),
  default_text_model: Nullable(Type.String()),
  default_provider_sort: Nullable(Type.String()),
  disabled_server_tools: Nullable(Type.Array(Type.String())),
  include_byok_in_budgets: Type.Boolean(),
  io_logging_api_key_ids: Nullable(Type.Array(Type.Integer())),
  io_logging_sampling_rate: Type.Number(),
  is_data_discount_logging_enabled: Type.Boolean(),
  is_observability_broadcast_enabled: Type.Boolean(),
  is_observability_io_logging_enabled: Type.Boolean(),
  ...responseCacheFields,
})

const name = Type.String({ minLength: 1, maxLength: 100 })
const slug = Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' })
const optionalFields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  default_image_model: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  default_text_model: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  default_provider_sort: Type.Optional(Nullable(Type.Enum([...providerSorts]))),
  disabled_server_tools: Type.Optional(Nullable(Type.Array(Type.Enum(serverToolNames)))),
  io_logging_api_key_ids: Type.Optional(Nullable(Type.Array(Type.Integer({ minimum: 0 })))),
  io_logging_sampling_rate: Type.Optional(Type.Number({ minimum: 0.0001, maximum: 1 })),
  is_data_discount_logging_enabled: Type.Optional(Type.Boolean()),
  is_observability_broadcast_enabled: Type.Optional(Type.Boolean()),
  is_observability_io_logging_enabled: Type.Optional(Type.Boolean()),
  ...responseCacheBodyFields,
}

export const CreateWorkspaceBody = Type.Object({ name, slug, ...optionalFields }, { additionalProperties: false })
export const UpdateWorkspaceBody = Type.Object(
  { name: Type.Optional(name), slug: Type.Optional(slug), ...optionalFields },
  { additionalProperties: false },
)

export const WorkspaceParams = Type.Object({ id: Type.String({ minLength: 1 }) })
export const DeleteWorkspaceQuery = Type.Object({ confirm_default_workspace_deletion: Type.Optional(Type.Boolean()) })

export const WorkspaceMember = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  workspace_id: Type.String(),
  role: Type.Enum(['admin', 'member']),
  created_at: Type.String(),
})

export const MembersBody = Type.Object(
  { user_ids: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
)

export const WorkspaceBudget = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  limit_usd: Type.Number(),
  reset_interval: Nullable(Type.Enum(['daily', 'weekly', 'monthly'])),
  created_at: Type.String(),
  updated_at: Type.String(),
})

export const BudgetParams = Type.Object({
  id: Type.String({ minLength: 1 }),
  interval: Type.Enum([...budgetIntervals]),
})
export const UpsertBudgetBody = Type.Object(
  { limit_usd: Type.Number({ exclusiveMinimum: 0 }), include_byok_in_budgets: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
)

export type Workspace = Static<typeof Workspace>
export type CreateWorkspaceBody = Static<typeof CreateWorkspaceBody>
export type UpdateWorkspaceBody = Static<typeof UpdateWorkspaceBody>
export type WorkspaceMember = Static<typeof WorkspaceMember>
export type WorkspaceBudget = Static<typeof WorkspaceBudget>
