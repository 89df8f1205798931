// Function tools, tool choice and structured-output format in the three formats, to and from the
// preset config's Chat Completions shapes. Anything that is not a function tool (server tools such as
// `openrouter:web_search`, provider built-ins) passes through unchanged.
import { isJsonObject, type JsonObject, type PresetFormat } from './preset-format.ts'

function defined(entries: Record<string, unknown>): JsonObject {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined))
}

export function toolToConfig(tool: unknown, format: PresetFormat): unknown {
  if (!isJsonObject(tool) || typeof tool.name !== 'string') return tool
  if (format === 'responses' && tool.type === 'function') {
    return {
      type: 'function',
      function: defined({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        strict: tool.strict,
      }),
    }
  }
  if (format === 'messages' && (tool.type === undefined || tool.type === 'custom') && 'input_schema' in tool) {
    return {
      type: 'function',
      function: defined({ name: tool.name, description: tool.description, parameters: tool.input_schema }),
    }
  }
  return tool
}

export function toolFromConfig(tool: unknown, format: PresetFormat): unknown {
  if (format === 'chat' || !isJsonObject(tool) || tool.type !== 'function' || !isJsonObject(tool.function)) return tool
  const { name, description, parameters, strict } = tool.function
  if (typeof name !== 'string') return tool
  if (format === 'responses') return defined({ type: 'function', name, description, parameters, strict })
  return defined({ name, description, input_schema: parameters ?? { type: 'object', properties: {} } })
}

const messagesChoiceToConfig: Readonly<Record<string, string>> = { auto: 'auto', any: 'required', none: 'none' }
const configChoiceToMessages: Readonly<Record<string, string>> = { auto: 'auto', required: 'any', none: 'none' }

export function toolChoiceToConfig(choice: unknown, format: PresetFormat): unknown {
  if (!isJsonObject(choice)) return choice
  if (format === 'responses' && choice.type === 'function' && typeof choice.name === 'string') {
    return { type: 'function', function: { name: choice.name } }
  }
  if (format === 'messages') {
    if (choice.type === 'tool' && typeof choice.name === 'string')
      return { type: 'function', function: { name: choice.name } }
    if (typeof choice.type === 'string' && messagesChoiceToConfig[choice.type] !== undefined)
      return messagesChoiceToConfig[choice.type]
  }
  return choice
}

export function toolChoiceFromConfig(choice: unknown, format: PresetFormat): unknown {
  if (format === 'chat') return choice
  const name =
    isJsonObject(choice) && choice.type === 'function' && isJsonObject(choice.function)
      ? choice.function.name
      : undefined
  if (format === 'responses') return typeof name === 'string' ? { type: 'function', name } : choice
  if (typeof name === 'string') return { type: 'tool', name }
  if (typeof choice === 'string' && configChoiceToMessages[choice] !== undefined)
    return { type: configChoiceToMessages[choice] }
  return choice
}

/** Responses `text.format` -> Chat `response_format` (json_schema fields move under `json_schema`). */
export function textFormatToConfig(format: unknown): unknown {
  if (!isJsonObject(format) || format.type !== 'json_schema') return format
  const { type, ...schema } = format
  return { type, json_schema: schema }
}

export function textFormatFromConfig(responseFormat: unknown): unknown {
  if (
    !isJsonObject(responseFormat) ||
    responseFormat.type !== 'json_schema' ||
    !isJsonObject(responseFormat.json_schema)
  )
    return responseFormat
  return { type: 'json_schema', ...responseFormat.json_schema }
}
