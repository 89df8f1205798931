// Applies a preset version to an inference body of one format. The preset's config goes UNDER the
// request: every field the request sets (non-null) wins; `provider`, `reasoning`, `text` and `thinking`
// objects merge one level deep (the request's keys win inside them). The preset's system prompt is
// prepended: before `instructions` (Responses), as a first system message (Chat Completions), before
// `system` (Messages). The preset reference itself (`@preset/<slug>` in `model`, the `preset` field) is
// removed. Pure: returns a new body, never mutates its inputs.
import type { PresetConfig } from './preset-config.ts'
import { isJsonObject, type JsonObject, type PresetFormat } from './preset-format.ts'
import { splitPresetModel } from './parse-preset-reference.ts'
import { textFormatFromConfig, toolChoiceFromConfig, toolFromConfig } from './translate-tools.ts'

export { parsePresetReference } from './parse-preset-reference.ts'

const mergedOneLevel: ReadonlySet<string> = new Set(['provider', 'reasoning', 'text', 'thinking'])

export function applyPreset(
  versionConfig: PresetConfig,
  systemPrompt: string | null,
  requestBody: JsonObject,
  format: PresetFormat,
): JsonObject {
  const merged = mergeUnder(configToFormat(versionConfig, format), withoutPresetReference(requestBody))
  return systemPrompt === null || systemPrompt === '' ? merged : prependSystemPrompt(merged, systemPrompt, format)
}

function withoutPresetReference(body: JsonObject): JsonObject {
  const { preset: _preset, ...rest } = body
  if (typeof rest.model !== 'string') return rest
  const { model } = splitPresetModel(rest.model)
  if (model !== null) return { ...rest, model }
  const { model: _model, ...withoutModel } = rest
  return withoutModel
}

/** The config in the format's own field names and shapes. */
export function configToFormat(config: PresetConfig, format: PresetFormat): JsonObject {
  const {
    max_tokens: maxTokens,
    tools,
    tool_choice: toolChoice,
    response_format: responseFormat,
    reasoning,
    ...fields
  } = config
  const body: JsonObject = { ...fields }
  if (maxTokens !== undefined) body[format === 'responses' ? 'max_output_tokens' : 'max_tokens'] = maxTokens
  if (Array.isArray(tools)) body.tools = tools.map((tool) => toolFromConfig(tool, format))
  if (toolChoice !== undefined) body.tool_choice = toolChoiceFromConfig(toolChoice, format)
  if (responseFormat !== undefined && format === 'chat') body.response_format = responseFormat
  if (responseFormat !== undefined && format === 'responses')
    body.text = { format: textFormatFromConfig(responseFormat) }
  if (reasoning !== undefined) Object.assign(body, reasoningToFormat(reasoning, format))
  return body
}

function reasoningToFormat(reasoning: unknown, format: PresetFormat): JsonObject {
  if (format !== 'messages' || !isJsonObject(reasoning)) return { reasoning }
  if (typeof reasoning.max_tokens === 'number')
    return { thinking: { type: 'enabled', budget_tokens: reasoning.max_tokens } }
  if (reasoning.enabled === false) return { thinking: { type: 'disabled' } }
  return { reasoning }
}

function mergeUnder(base: JsonObject, request: JsonObject): JsonObject {
  const result: JsonObject = { ...base }
  for (const [key, value] of Object.entries(request)) {
    if (value === null && result[key] !== undefined) continue
    const under = result[key]
    result[key] = mergedOneLevel.has(key) && isJsonObject(under) && isJsonObject(value) ? { ...under, ...value } : value
  }
  return result
}

function prependSystemPrompt(body: JsonObject, systemPrompt: string, format: PresetFormat): JsonObject {
  if (format === 'responses') {
    const own = typeof body.instructions === 'string' && body.instructions !== '' ? body.instructions : null
    return { ...body, instructions: own === null ? systemPrompt : `${systemPrompt}\n\n${own}` }
  }
  if (format === 'chat') {
    const messages = Array.isArray(body.messages) ? body.messages : []
    return { ...body, messages: [{ role: 'system', content: systemPrompt }, ...messages] }
  }
  if (Array.isArray(body.system)) return { ...body, system: [{ type: 'text', text: systemPrompt }, ...body.system] }
  const own = typeof body.system === 'string' && body.system !== '' ? body.system : null
  return { ...body, system: own === null ? systemPrompt : `${systemPrompt}\n\n${own}` }
}
