// Turns an inference body (Responses, Chat Completions or Messages) into a preset version: the
// configuration fields in the config vocabulary, and the system prompt (`instructions`; system and
// developer messages; `system`). Conversation fields (input, user and assistant turns, stream, prompt,
// metadata...) are ignored. Pure.
import type { PresetConfig } from './preset-config.ts'
import { isJsonObject, type JsonObject, type PresetFormat } from './preset-format.ts'
import { textFormatToConfig, toolChoiceToConfig, toolToConfig } from './translate-tools.ts'

export interface ExtractedPreset {
  readonly config: PresetConfig
  readonly systemPrompt: string | null
}

const sharedKeys = [
  'model',
  'models',
  'temperature',
  'top_p',
  'top_k',
  'frequency_penalty',
  'presence_penalty',
  'provider',
  'reasoning',
  'plugins',
] as const

export function extractPresetConfig(body: JsonObject, format: PresetFormat): ExtractedPreset {
  const config: PresetConfig = {}
  for (const key of sharedKeys) if (body[key] !== undefined && body[key] !== null) config[key] = body[key]
  const maxTokens =
    format === 'responses'
      ? body.max_output_tokens
      : format === 'chat'
        ? (body.max_completion_tokens ?? body.max_tokens)
        : body.max_tokens
  if (maxTokens !== undefined && maxTokens !== null) config.max_tokens = maxTokens
  if (Array.isArray(body.tools)) config.tools = body.tools.map((tool) => toolToConfig(tool, format))
  if (body.tool_choice !== undefined && body.tool_choice !== null)
    config.tool_choice = toolChoiceToConfig(body.tool_choice, format)
  const responseFormat =
    format === 'chat'
      ? body.response_format
      : format === 'responses' && isJsonObject(body.text)
        ? textFormatToConfig(body.text.format)
        : undefined
  if (responseFormat !== undefined && responseFormat !== null) config.response_format = responseFormat
  const reasoning = reasoningOf(body, format)
  if (reasoning !== undefined) config.reasoning = reasoning
  return { config, systemPrompt: systemPromptOf(body, format) }
}

function reasoningOf(body: JsonObject, format: PresetFormat): unknown {
  if (body.reasoning !== undefined && body.reasoning !== null) return body.reasoning
  if (format === 'chat' && typeof body.reasoning_effort === 'string') return { effort: body.reasoning_effort }
  if (format === 'messages' && isJsonObject(body.thinking)) {
    if (body.thinking.type === 'enabled' && typeof body.thinking.budget_tokens === 'number')
      return { max_tokens: body.thinking.budget_tokens }
    if (body.thinking.type === 'disabled') return { enabled: false }
  }
  return undefined
}

/** The text of a string or of an array of `{type: "text" | "input_text", text}` parts. */
export function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return null
  const texts = content.filter(isJsonObject).flatMap((part) => (typeof part.text === 'string' ? [part.text] : []))
  return texts.length === 0 ? null : texts.join('\n\n')
}

function systemPromptOf(body: JsonObject, format: PresetFormat): string | null {
  const texts =
    format === 'responses'
      ? [typeof body.instructions === 'string' ? body.instructions : null]
      : format === 'messages'
        ? [textOf(body.system)]
        : (Array.isArray(body.messages) ? body.messages : [])
            .filter(
              (message): message is JsonObject =>
                isJsonObject(message) && (message.role === 'system' || message.role === 'developer'),
            )
            .map((message) => textOf(message.content))
  const present = texts.filter((text): text is string => text !== null && text !== '')
  return present.length === 0 ? null : present.join('\n\n')
}
