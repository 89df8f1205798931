import { Type, type Static } from 'typebox'

export const OrganizationMember = Type.Object({
  id: Type.String({ description: 'The user id' }),
  user_id: Type.String(),
  email: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  first_name: Type.Union([Type.String(), Type.Null()]),
  last_name: Type.Union([Type.String(), Type.Null()]),
  role: Type.Enum(['org:admin', 'org:member']),
  created_at: Type.String(),
})

export const CreateMemberBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    role: Type.Optional(Type.Enum(['admin', 'member'])),
  },
  { additionalProperties: false },
)

export type OrganizationMember = Static<typeof OrganizationMember>
export type CreateMemberBody = Static<typeof CreateMemberBody>
