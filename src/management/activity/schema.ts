// GET /api/v1/activity: the query @openrouter/sdk's analytics.getUserActivity() sends, the console's
// extra filters, and OpenRouter's ActivityItem rows.
import { Type, type Static } from 'typebox'

const day = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: `${description} (YYYY-MM-DD, UTC)` }))

export const ActivityQuery = Type.Object({
  date: day('Only this day'),
  api_key_hash: Type.Optional(
    Type.String({
      pattern: '^[0-9a-f]{64}$',
      maxLength: 64,
      description: "Only this key's activity (the key's hash, as the keys API returns it)",
    }),
  ),
  user_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'Only activity of keys this organization member created',
    }),
  ),
  group_by: Type.Optional(
    Type.Literal('workspace', { description: 'workspace: one row per workspace, with workspace_id on every item' }),
  ),
  workspace_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'Only this workspace (management keys; other keys read their own)',
    }),
  ),
  from: day('First day of a range, instead of the last 30 completed days'),
  to: day('Last day of a range, inclusive (default: the last completed day)'),
})
export type ActivityQuery = Static<typeof ActivityQuery>

const ActivityItem = Type.Object({
  date: Type.String({ description: 'UTC day, YYYY-MM-DD' }),
  model: Type.String({ description: 'Model slug as requested' }),
  model_permaslug: Type.String({ description: "The catalog's canonical slug (Switchyard: the model slug)" }),
  endpoint_id: Type.String({ description: "The serving endpoint's id; '' when no endpoint was reached" }),
  provider_name: Type.String({ description: "The provider of the endpoint; '' when none" }),
  usage: Type.Number({ description: 'Cost billed, USD' }),
  byok_usage_inference: Type.Number({ description: 'Cost of bring-your-own-key requests, USD' }),
  requests: Type.Integer(),
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  reasoning_tokens: Type.Integer(),
  workspace_id: Type.Optional(Type.String({ description: 'Only with group_by=workspace' })),
})

export const ActivityResponse = Type.Object({ data: Type.Array(ActivityItem) })
