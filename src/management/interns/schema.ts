import { Type, type Static } from 'typebox'
import { uuidPattern } from '../vault/schema.ts'
import { internStatuses } from './intern-lifecycle.ts'

const internName = Type.String({
  minLength: 2,
  maxLength: 17,
  pattern: '^[a-z][a-z0-9]*(-[a-z0-9]+)*$',
  description: 'Unique in the workspace',
})
const nullableText = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()])

export const Intern = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  instructions: Type.Union([Type.String(), Type.Null()]),
  model: Type.Union([Type.String(), Type.Null()]),
  hostname: Type.Union([Type.String(), Type.Null()]),
  status: Type.Enum([...internStatuses]),
  progress: Type.Union([
    Type.Object({ step_label: Type.String(), step_number: Type.Integer(), total_steps: Type.Integer() }),
    Type.Null(),
  ]),
  last_failure_message: Type.Union([Type.String(), Type.Null()]),
  vault_id: Type.String(),
  attached_vault_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
})

export const CreateInternBody = Type.Object(
  {
    name: internName,
    description: Type.Optional(nullableText(2000)),
    instructions: Type.Optional(nullableText(100000)),
    provision: Type.Optional(Type.Boolean()),
    vault_id: Type.Optional(
      Type.String({
        maxLength: 36,
        pattern: uuidPattern,
        description: "Another intern's vault to borrow (same workspace)",
      }),
    ),
    workspace_id: Type.Optional(Type.String({ minLength: 1, description: "Must equal the key's workspace" })),
  },
  { additionalProperties: false },
)

export const UpdateInternBody = Type.Object(
  {
    name: Type.Optional(internName),
    description: Type.Optional(nullableText(2000)),
    instructions: Type.Optional(nullableText(100000)),
    model: Type.Optional(
      Type.Union([
        Type.String({
          minLength: 3,
          maxLength: 200,
          pattern: '^[a-z0-9][a-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*(:[a-z0-9._-]+)?$',
        }),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
)

export const DeleteInternBody = Type.Union([
  Type.Object({ acknowledge_workspace_loss: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  Type.Null(),
])

export const ListInternsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Page size, 1 to 500 (default 50)' })),
    status: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], { description: 'Comma-separated statuses, at most 8' }),
    ),
    starting_after: Type.Optional(Type.String({ description: 'The next_cursor of the previous page' })),
    workspace_id: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
)

export const InternIdParams = Type.Object({ internId: Type.String({ maxLength: 36, pattern: uuidPattern }) })

export const InternList = Type.Object({
  data: Type.Array(Intern),
  has_more: Type.Boolean(),
  next_cursor: Type.Optional(Type.String()),
})

export type Intern = Static<typeof Intern>
export type CreateInternBody = Static<typeof CreateInternBody>
export type UpdateInternBody = Static<typeof UpdateInternBody>
export type ListInternsQuery = Static<typeof ListInternsQuery>
