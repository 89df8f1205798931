// Canonical call -> generateContent / streamGenerateContent request. System and developer messages
// become systemInstruction; tool results are user turns carrying functionResponse parts, named after
// the call they answer.

import type { CanonicalCall, ReasoningConfig, ResponseFormat, ToolChoice } from '../../domain/inference/call.ts'
import type { AssistantMessage, ContentPart, Message } from '../../domain/inference/message.ts'
import { messageText } from '../../domain/inference/message-text.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import type { UpstreamRequest } from '../provider-adapter.ts'
import type { GeminiContent, GeminiPart } from './wire.ts'

export function buildGeminiRequest(call: CanonicalCall): UpstreamRequest {
  const model = encodeURIComponent(call.model.replace(/^models\//, ''))
  const path = call.stream
    ? `/v1beta/models/${model}:streamGenerateContent?alt=sse`
    : `/v1beta/models/${model}:generateContent`
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  return { method: 'POST', path, headers, body: Object.assign(geminiBody(call), call.extra) }
}

/** The generateContent body without `extra` (Vertex serves the same body under its own path). */
export function geminiBody(call: CanonicalCall): Record<string, unknown> {
  const system = call.messages.flatMap((message) =>
    message.role === 'system' || message.role === 'developer' ? [{ text: messageText(message.content) }] : [],
  )
  const fields: Record<string, unknown> = {
    systemInstruction: system.length === 0 ? undefined : { parts: system },
    contents: toContents(call.messages),
    tools:
      call.tools === undefined || call.tools.length === 0
        ? undefined
        : [
            {
              functionDeclarations: call.tools.map((tool) => ({
                name: tool.name,
                description: tool.description,
                parametersJsonSchema: tool.parameters,
              })),
            },
          ],
    toolConfig:
      call.tool_choice === undefined ? undefined : { functionCallingConfig: toCallingConfig(call.tool_choice) },
    generationConfig: generationConfig(call),
  }
  return dropUndefined(fields)
}

function generationConfig(call: CanonicalCall): Record<string, unknown> | undefined {
  const config: Record<string, unknown> = {
    maxOutputTokens: call.max_output_tokens,
    temperature: call.temperature,
    topP: call.top_p,
    topK: call.top_k,
    frequencyPenalty: call.frequency_penalty,
    presencePenalty: call.presence_penalty,
    seed: call.seed,
    stopSequences: call.stop,
    responseLogprobs: call.logprobs,
    logprobs: call.top_logprobs,
    ...responseFormatFields(call.response_format),
    thinkingConfig: thinkingConfig(call.reasoning),
  }
  const defined = Object.entries(config).filter(([, value]) => value !== undefined)
  return defined.length === 0 ? undefined : Object.fromEntries(defined)
}

function responseFormatFields(format: ResponseFormat | undefined): Record<string, unknown> {
  if (format === undefined || format.type === 'text') return {}
  if (format.type === 'json_object') return { responseMimeType: 'application/json' }
  return { responseMimeType: 'application/json', responseJsonSchema: format.schema }
}

function thinkingConfig(reasoning: ReasoningConfig | undefined): Record<string, unknown> | undefined {
  if (reasoning === undefined) return undefined
  if (reasoning.enabled === false) return { thinkingBudget: 0 }
  return reasoning.max_tokens === undefined
    ? { includeThoughts: true }
    : { includeThoughts: true, thinkingBudget: reasoning.max_tokens }
}

function toCallingConfig(choice: ToolChoice): Record<string, unknown> {
  if (typeof choice !== 'string') return { mode: 'ANY', allowedFunctionNames: [choice.name] }
  return { mode: ({ auto: 'AUTO', none: 'NONE', required: 'ANY' } as const)[choice] }
}

function toContents(messages: readonly Message[]): GeminiContent[] {
  const names = new Map<string, string>()
  const contents: GeminiContent[] = []
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') continue
    const role = message.role === 'assistant' ? 'model' : 'user'
    let parts: GeminiPart[]
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) names.set(call.id, call.name)
      parts = modelParts(message)
    } else if (message.role === 'tool') {
      const name = message.name ?? names.get(message.tool_call_id) ?? message.tool_call_id
      parts = [{ functionResponse: { name, response: { result: messageText(message.content) } } }]
    } else {
      parts = typeof message.content === 'string' ? [{ text: message.content }] : message.content.map(toPart)
    }
    const last = contents.at(-1)
    if (last?.role === role) last.parts.push(...parts)
    else contents.push({ role, parts })
  }
  return contents
}

function modelParts(message: AssistantMessage): GeminiPart[] {
  const parts: GeminiPart[] = []
  for (const item of message.reasoning ?? []) {
    if (item.origin === 'gemini' && item.signature !== undefined)
      parts.push({ text: item.text, thought: true, thoughtSignature: item.signature })
  }
  const text = messageText(message.content)
  if (text !== '') parts.push({ text })
  for (const call of message.tool_calls ?? []) {
    const part: GeminiPart = { functionCall: { name: call.name, args: parseArgs(call.arguments) } }
    if (call.signature !== undefined) part.thoughtSignature = call.signature
    parts.push(part)
  }
  return parts
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

const imageTypes: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
}

function toPart(part: ContentPart): GeminiPart {
  if (part.type === 'text') return { text: part.text }
  if (part.source === 'base64') return { inlineData: { mimeType: part.media_type, data: part.data } }
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(part.url)
  if (data?.[1] !== undefined && data[2] !== undefined) return { inlineData: { mimeType: data[1], data: data[2] } }
  const extension = /\.([a-z]+)(?:[?#]|$)/i.exec(part.url)?.[1]?.toLowerCase() ?? ''
  return {
    fileData: {
      mimeType: Object.hasOwn(imageTypes, extension) ? (imageTypes[extension] ?? 'image/jpeg') : 'image/jpeg',
      fileUri: part.url,
    },
  }
}
