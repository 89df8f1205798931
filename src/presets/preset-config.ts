// A preset version's `config`: format-neutral inference settings, named as Chat Completions names them
// (`max_tokens`, `response_format`, tools as `{type: "function", function: {...}}`). Each format's body
// is translated into this vocabulary when a preset is created, and back when it is applied.
import type { JsonObject } from './preset-format.ts'

export type PresetConfig = JsonObject

/** Every key a config may hold. Fields of an inference body outside this list are not saved. */
export const presetConfigKeys = [
  'model',
  'models',
  'temperature',
  'top_p',
  'top_k',
  'max_tokens',
  'frequency_penalty',
  'presence_penalty',
  'provider',
  'reasoning',
  'tools',
  'tool_choice',
  'response_format',
  'plugins',
] as const

export type PresetConfigKey = (typeof presetConfigKeys)[number]
