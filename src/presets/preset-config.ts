// A preset version's `config`: format-neutral inference settings, named as Chat Completions names them
// (`max_tokens`, `response_format`, tools as `{type: "function", function: {...}}`). Each format's body
// is translated into this vocabulary when a preset is created, and back when it is applied.
import type { JsonObject } from './preset-format.ts'

export type PresetConfig = JsonObject
