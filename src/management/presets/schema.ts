import { Type, type Static } from 'typebox'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

export const PresetVersion = Type.Object({
  id: Type.String(),
  preset_id: Type.String(),
  version: Type.Integer(),
  config: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Inference settings (model, temperature, provider, tools...)',
  }),
  system_prompt: Nullable(Type.String()),
  creator_id: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
})

const presetFields = {
  id: Type.String(),
  slug: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  status: Type.Enum(['active', 'disabled', 'archived']),
  status_updated_at: Nullable(Type.String()),
  designated_version_id: Nullable(Type.String()),
  workspace_id: Nullable(Type.String()),
  creator_user_id: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
}

export const Preset = Type.Object(presetFields)
export const PresetWithDesignatedVersion = Type.Object({ ...presetFields, designated_version: Nullable(PresetVersion) })

export const PresetSlugPath = Type.Object({ slug: Type.String({ minLength: 1 }) })
export const PresetVersionPath = Type.Object({
  slug: Type.String({ minLength: 1 }),
  version: Type.String({ minLength: 1 }),
})

const number = (minimum?: number, maximum?: number) =>
  Type.Optional(
    Nullable(
      Type.Number({ ...(minimum === undefined ? {} : { minimum }), ...(maximum === undefined ? {} : { maximum }) }),
    ),
  )
const count = () => Type.Optional(Nullable(Type.Integer({ minimum: 1 })))
const anyObject = () => Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown())))
const anyArray = () => Type.Optional(Nullable(Type.Array(Type.Unknown())))

/** The configuration fields shared by the three formats, typed; every other field is accepted and ignored. */
const configFields = {
  model: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  models: Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1 })))),
  temperature: number(0, 2),
  top_p: number(0, 1),
  top_k: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  frequency_penalty: number(-2, 2),
  presence_penalty: number(-2, 2),
  provider: anyObject(),
  reasoning: anyObject(),
  tools: anyArray(),
  tool_choice: Type.Optional(Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  plugins: anyArray(),
}

export const ResponsesPresetBody = Type.Object({
  ...configFields,
  max_output_tokens: count(),
  text: anyObject(),
  instructions: Type.Optional(Nullable(Type.String())),
})
export const ChatPresetBody = Type.Object({
  ...configFields,
  max_tokens: count(),
  max_completion_tokens: count(),
  response_format: anyObject(),
  reasoning_effort: Type.Optional(Nullable(Type.String())),
  messages: anyArray(),
})
export const MessagesPresetBody = Type.Object({
  ...configFields,
  max_tokens: count(),
  thinking: anyObject(),
  system: Type.Optional(Nullable(Type.Union([Type.String(), Type.Array(Type.Unknown())]))),
})

export type PresetVersion = Static<typeof PresetVersion>
export type Preset = Static<typeof Preset>
export type PresetWithDesignatedVersion = Static<typeof PresetWithDesignatedVersion>
