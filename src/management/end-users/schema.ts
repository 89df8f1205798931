import { Type, type Static } from 'typebox'
import { PageOffset } from '../../http/pagination.ts'

export const EndUser = Type.Object({
  user: Type.String({ description: 'The tracking string, exactly as registered' }),
  is_active: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Type.String(),
})

export const RegisterEndUserBody = Type.Object(
  {
    user: Type.String({
      description: 'Tracking string: 1 to 512 Unicode code points, well-formed, no NUL, no surrounding whitespace',
    }),
  },
  { additionalProperties: false },
)

export const UpdateEndUserBody = Type.Object({ is_active: Type.Boolean() }, { additionalProperties: false })

export const EndUserPath = Type.Object({ user: Type.String({ minLength: 1 }) })

export const ListEndUsersQuery = Type.Object({
  offset: Type.Optional(PageOffset),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1 to 100 (default 50)' })),
  user: Type.Optional(Type.String({ description: 'Exact tracking string; the only way to reach "." and ".."' })),
  include_inactive: Type.Optional(Type.Boolean({ description: 'Include deactivated registrations (default false)' })),
})

export type EndUser = Static<typeof EndUser>
export type RegisterEndUserBody = Static<typeof RegisterEndUserBody>
export type UpdateEndUserBody = Static<typeof UpdateEndUserBody>
export type ListEndUsersQuery = Static<typeof ListEndUsersQuery>
