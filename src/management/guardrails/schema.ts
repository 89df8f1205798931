// Wire schemas of the guardrail routes (api-reference §5). They validate requests and feed OpenAPI.
import { Type, type Static, type TSchema } from 'typebox'
import { PageOffset } from '../../http/pagination.ts'
import {
  builtinFilterSlugs,
  contentFilterActions,
  dataRegions,
  guardrailIntervals,
  scanScopes,
} from '../../domain/guardrail-record.ts'

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
const action = Type.Enum([...contentFilterActions])

const ContentFilter = Type.Object({ pattern: Type.String(), action, label: Type.Optional(Nullable(Type.String())) })
const ContentFilterBuiltin = Type.Object({
  slug: Type.Enum([...builtinFilterSlugs]),
  action,
  label: Type.Optional(Type.String()),
  scan_scope: Type.Optional(Type.Enum([...scanScopes])),
})

export const guardrailFlagNames = [
  'enforce_zdr',
  'enforce_zdr_anthropic',
  'enforce_zdr_openai',
  'enforce_zdr_google',
  'enforce_zdr_xai',
  'enforce_zdr_other',
  'enable_free_model_publication',
  'enable_free_model_training',
  'enable_paid_model_training',
] as const
export type GuardrailFlagName = (typeof guardrailFlagNames)[number]

const flag = Nullable(Type.Boolean())
const flags = {
  enforce_zdr: flag,
  enforce_zdr_anthropic: flag,
  enforce_zdr_openai: flag,
  enforce_zdr_google: flag,
  enforce_zdr_xai: flag,
  enforce_zdr_other: flag,
  enable_free_model_publication: flag,
  enable_free_model_training: flag,
  enable_paid_model_training: flag,
} satisfies Record<GuardrailFlagName, TSchema>
const optionalFlags = Object.fromEntries(
  Object.entries(flags).map(([key, schema]) => [key, Type.Optional(schema)]),
) as {
  [K in GuardrailFlagName]: ReturnType<typeof Type.Optional<typeof flag>>
}

export const Guardrail = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  workspace_id: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Nullable(Type.String()),
  limit_usd: Nullable(Type.Number()),
  reset_interval: Nullable(Type.Enum([...guardrailIntervals])),
  include_byok_in_budgets: Type.Boolean(),
  allowed_models: Nullable(Type.Array(Type.String())),
  ignored_models: Nullable(Type.Array(Type.String())),
  allowed_providers: Nullable(Type.Array(Type.String())),
  ignored_providers: Nullable(Type.Array(Type.String())),
  allowed_data_regions: Nullable(Type.Array(Type.Enum([...dataRegions]))),
  content_filters: Nullable(Type.Array(ContentFilter)),
  content_filter_builtins: Nullable(Type.Array(ContentFilterBuiltin)),
  ...flags,
})

// Bounds a request must meet before anything reads its items: a guardrail's lists are matched on every call,
// so an unbounded one (1.5 million models was accepted once) would make every request of its scope slow.
const maxListedSlugs = 1000
const maxContentFilters = 100
const stringList = Type.Optional(
  Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { minItems: 1, maxItems: maxListedSlugs })),
)
const editableFields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  limit_usd: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0 }))),
  reset_interval: Type.Optional(Nullable(Type.Enum([...guardrailIntervals]))),
  include_byok_in_budgets: Type.Optional(Type.Boolean()),
  allowed_models: stringList,
  ignored_models: stringList,
  allowed_providers: stringList,
  ignored_providers: stringList,
  allowed_data_regions: Type.Optional(
    Nullable(Type.Array(Type.Enum([...dataRegions]), { minItems: 1, maxItems: dataRegions.length })),
  ),
  content_filters: Type.Optional(
    Nullable(
      Type.Array(
        Type.Object(
          {
            pattern: Type.String({ minLength: 1, maxLength: 1000 }),
            action,
            label: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: maxContentFilters },
      ),
    ),
  ),
  content_filter_builtins: Type.Optional(
    Nullable(
      Type.Array(
        Type.Object(
          {
            slug: Type.Enum([...builtinFilterSlugs]),
            action,
            label: Type.Optional(Type.String({ maxLength: 100 })),
            scan_scope: Type.Optional(Type.Enum([...scanScopes])),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: maxContentFilters },
      ),
    ),
  ),
  ...optionalFlags,
}

const name = Type.String({ minLength: 1, maxLength: 200 })
export const CreateGuardrailBody = Type.Object(
  { name, workspace_id: Type.Optional(Type.String({ minLength: 1 })), ...editableFields },
  { additionalProperties: false },
)
export const UpdateGuardrailBody = Type.Object(
  { name: Type.Optional(name), ...editableFields },
  { additionalProperties: false },
)

export const GuardrailParams = Type.Object({ id: Type.String({ minLength: 1 }) })
export const ListGuardrailsQuery = Type.Object({
  offset: Type.Optional(PageOffset),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  workspace_id: Type.Optional(Type.String({ minLength: 1 })),
})

export const KeyAssignment = Type.Object({
  id: Type.String(),
  guardrail_id: Type.String(),
  key_hash: Type.String(),
  key_name: Type.String(),
  key_label: Type.String(),
  assigned_by: Nullable(Type.String()),
  created_at: Type.String(),
})

export const MemberAssignment = Type.Object({
  id: Type.String(),
  guardrail_id: Type.String(),
  user_id: Type.String(),
  organization_id: Type.String(),
  assigned_by: Nullable(Type.String()),
  created_at: Type.String(),
})

const idList = Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 500 })
export const KeyHashesBody = Type.Object({ key_hashes: idList }, { additionalProperties: false })
export const MemberUserIdsBody = Type.Object({ member_user_ids: idList }, { additionalProperties: false })

export type Guardrail = Static<typeof Guardrail>
export type CreateGuardrailBody = Static<typeof CreateGuardrailBody>
export type UpdateGuardrailBody = Static<typeof UpdateGuardrailBody>
export type KeyAssignment = Static<typeof KeyAssignment>
export type MemberAssignment = Static<typeof MemberAssignment>
