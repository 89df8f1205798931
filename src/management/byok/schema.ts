import { Type } from 'typebox'
import { PageOffset } from '../../http/pagination.ts'

/** A bring-your-own-key provider credential, as @openrouter/sdk's `BYOKKey` reads it. */
export const ByokKey = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  label: Type.String(),
  name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  workspace_id: Type.Union([Type.String(), Type.Null()]),
  disabled: Type.Boolean(),
  is_byok_only: Type.Boolean(),
  is_fallback: Type.Boolean(),
  is_required: Type.Boolean(),
  sort_order: Type.Integer(),
  declared_zdr: Type.Union([Type.Boolean(), Type.Null()]),
  allowed_api_key_hashes: Type.Union([Type.Array(Type.String()), Type.Null()]),
  allowed_models: Type.Union([Type.Array(Type.String()), Type.Null()]),
  allowed_user_ids: Type.Union([Type.Array(Type.String()), Type.Null()]),
  created_at: Type.String(),
})

export const ListByokKeysQuery = Type.Object({
  offset: Type.Optional(PageOffset),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1 to 100 (default 50)' })),
  provider: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this upstream provider' })),
  workspace_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Workspace id or slug (default workspace)' }),
  ),
})
