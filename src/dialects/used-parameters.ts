// The request parameters a canonical call uses, named as models list them in `supported_parameters`,
// for `provider.require_parameters`. Derived from the call, so every dialect names them alike.

import type { CanonicalCall } from '../domain/inference/call.ts'

type CallField = keyof Omit<CanonicalCall, 'model' | 'messages' | 'stream' | 'user' | 'service_tier' | 'extra'>

/** Each optional call field and the parameter names it needs when set. */
const parameterNames: Readonly<Record<CallField, (call: Omit<CanonicalCall, 'model'>) => readonly string[]>> = {
  tools: (call) => ((call.tools?.length ?? 0) > 0 ? ['tools'] : []),
  tool_choice: () => ['tool_choice'],
  parallel_tool_calls: () => ['parallel_tool_calls'],
  max_output_tokens: () => ['max_tokens'],
  temperature: () => ['temperature'],
  top_p: () => ['top_p'],
  top_k: () => ['top_k'],
  frequency_penalty: () => ['frequency_penalty'],
  presence_penalty: () => ['presence_penalty'],
  seed: () => ['seed'],
  stop: (call) => ((call.stop?.length ?? 0) > 0 ? ['stop'] : []),
  response_format: (call) => {
    const type = call.response_format?.type
    if (type === 'json_schema') return ['response_format', 'structured_outputs']
    return type === 'json_object' ? ['response_format'] : []
  },
  reasoning: (call) => (call.reasoning?.enabled === false ? [] : ['reasoning']),
  logprobs: (call) => (call.logprobs === true ? ['logprobs'] : []),
  top_logprobs: () => ['top_logprobs'],
}

export function usedParameters(call: Omit<CanonicalCall, 'model'>): string[] {
  const names: string[] = []
  for (const [field, name] of Object.entries(parameterNames) as [CallField, (typeof parameterNames)[CallField]][]) {
    if (call[field] !== undefined) names.push(...name(call))
  }
  return [...new Set(names)]
}
