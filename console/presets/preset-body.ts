// The request body a preset is created from (POST /api/v1/presets/{slug}/<format>): the API stores the
// body's settings as the preset's next version, so the form writes the same body a client would send.
export type PresetFormat = 'chat' | 'responses' | 'messages'

/** Each format's create route, after /api/v1/presets/{slug}/. */
export const presetFormatPaths: Readonly<Record<PresetFormat, string>> = {
  chat: 'chat/completions',
  responses: 'responses',
  messages: 'messages',
}

export const presetFormatOptions = [
  ['chat', 'chat completions'],
  ['responses', 'responses'],
  ['messages', 'messages (Anthropic)'],
] as const

export interface PresetFields {
  readonly model: string
  readonly systemPrompt: string
  readonly temperature: number | null
  readonly maxTokens: number | null
  /** Any other settings of the format's request body (provider, reasoning, tools, ...). */
  readonly extra: Readonly<Record<string, unknown>>
}

/** The body in the format's own words: its system prompt field and its output-token limit field. */
export function presetBody(format: PresetFormat, fields: PresetFields): Record<string, unknown> {
  const body: Record<string, unknown> = { ...fields.extra }
  if (fields.model !== '') body.model = fields.model
  if (fields.temperature !== null) body.temperature = fields.temperature
  if (fields.maxTokens !== null) body[format === 'responses' ? 'max_output_tokens' : 'max_tokens'] = fields.maxTokens
  if (fields.systemPrompt !== '') {
    if (format === 'chat') body.messages = [{ role: 'system', content: fields.systemPrompt }]
    else if (format === 'responses') body.instructions = fields.systemPrompt
    else body.system = fields.systemPrompt
  }
  return body
}

/** '' -> {}, else the JSON object written; anything else is refused before a request. */
export function parseExtraSettings(text: string): Record<string, unknown> {
  if (text.trim() === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new Error(`Other settings are not JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('Other settings must be a JSON object, e.g. {"provider": {"sort": "price"}}')
  return parsed as Record<string, unknown>
}
