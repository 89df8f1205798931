// The three inference formats a preset can be created from and applied to.
export type PresetFormat = 'responses' | 'chat' | 'messages'

/** The path suffix of each format's create-from-body route: POST /presets/{slug}/<suffix>. */
export const presetFormatPaths: Readonly<Record<PresetFormat, string>> = {
  responses: 'responses',
  chat: 'chat/completions',
  messages: 'messages',
}

export type JsonObject = Record<string, unknown>

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
