// GET /api/v1/generations: query and response schemas (they also feed the OpenAPI document).
import { Type, type Static } from 'typebox'
import type { GenerationApiType } from '../../generations/generation-record.ts'
import { Generation } from './generation-schema.ts'

const text = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 256, description }))

/** Public `status` filter -> stored generation status. */
export const statusFilters = { success: 'completed', error: 'failed', cancelled: 'cancelled' } as const

/**
 * Public `api_type` filter: the generation object's own `api_type` values, and the client API of
 * completions (chat, responses, messages) as a narrower choice.
 */
export const apiTypeFilters: Readonly<
  Record<string, { readonly apiType: GenerationApiType; readonly dialect?: string }>
> = {
  completions: { apiType: 'completions' },
  embeddings: { apiType: 'embeddings' },
  decisions: { apiType: 'decisions' },
  chat: { apiType: 'completions', dialect: 'openai-chat' },
  responses: { apiType: 'completions', dialect: 'openai-responses' },
  messages: { apiType: 'completions', dialect: 'anthropic-messages' },
}

export const ListGenerationsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1 to 100 (default 50)' })),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 512, description: 'The next_cursor of the previous page, unchanged' }),
  ),
  api_key_hash: Type.Optional(
    Type.String({
      pattern: '^[0-9a-f]{64}$',
      maxLength: 64,
      description: "Only this key's records (the key's hash, as the keys API returns it)",
    }),
  ),
  workspace_id: text('Only this workspace (management keys; other keys read only their own workspace)'),
  model: text('Only this model slug, as requested (e.g. openai/gpt-4o)'),
  provider: text('Only records served by this provider (e.g. openai)'),
  status: Type.Optional(
    Type.Union([Type.Literal('success'), Type.Literal('error'), Type.Literal('cancelled')], {
      description: 'success, error (failed), or cancelled',
    }),
  ),
  api_type: Type.Optional(
    Type.Union(
      [
        Type.Literal('completions'),
        Type.Literal('embeddings'),
        Type.Literal('decisions'),
        Type.Literal('chat'),
        Type.Literal('responses'),
        Type.Literal('messages'),
      ],
      {
        description:
          'completions, embeddings or decisions (the api_type field); chat, responses or messages narrow completions to one client API',
      },
    ),
  ),
  from: text('Records created at or after this ISO 8601 date or date-time (UTC when no offset)'),
  to: text('Records created before this ISO 8601 date or date-time (exclusive)'),
  user: text("Only records of this end user (the request's `user`)"),
  session_id: text('Only records of this session'),
})
export type ListGenerationsQuery = Static<typeof ListGenerationsQuery>

export const GenerationList = Type.Object({
  data: Type.Array(Generation, { description: 'The same objects as the data of GET /generation' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for the next (older) page; null on the last page',
  }),
})
