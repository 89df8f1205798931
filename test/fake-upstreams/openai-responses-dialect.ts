// The fake's OpenAI Responses wire format: typed events with sequence numbers, usage on completion.

import type { FakeDialect } from './fake-dialect.ts'
import { openaiErrorBody } from './openai-chat-dialect.ts'
import { sseFrame } from './fake-dialect.ts'
import type { CompletionPlan } from './scripted-reply.ts'

interface Item {
  added: unknown
  events: { type: string; body: Record<string, unknown> }[]
  done: unknown
}

function wireUsage(plan: CompletionPlan): unknown {
  const usage = plan.usage
  return {
    input_tokens: usage.input_tokens,
    input_tokens_details: { cached_tokens: usage.cached_input_tokens },
    output_tokens: usage.output_tokens,
    output_tokens_details: { reasoning_tokens: usage.reasoning_tokens },
    total_tokens: usage.total_tokens,
  }
}

function items(plan: CompletionPlan): Item[] {
  const list: Item[] = []
  if (plan.reasoningPieces.length > 0) {
    const id = `rs_${plan.id}`
    const summary = [{ type: 'summary_text', text: plan.reasoningPieces.join('') }]
    list.push({
      added: { id, type: 'reasoning', summary: [] },
      events: [
        {
          type: 'response.reasoning_summary_part.added',
          body: { item_id: id, summary_index: 0, part: { type: 'summary_text', text: '' } },
        },
        ...plan.reasoningPieces.map((delta) => ({
          type: 'response.reasoning_summary_text.delta',
          body: { item_id: id, summary_index: 0, delta },
        })),
      ],
      done: { id, type: 'reasoning', summary, encrypted_content: plan.reasoningSignature ?? 'fake-encrypted' },
    })
  }
  if (plan.textPieces.length > 0) {
    const id = `msg_${plan.id}`
    const part = { type: 'output_text', annotations: [], logprobs: [], text: plan.textPieces.join('') }
    list.push({
      added: { id, type: 'message', status: 'in_progress', content: [], role: 'assistant' },
      events: [
        { type: 'response.content_part.added', body: { item_id: id, content_index: 0, part: { ...part, text: '' } } },
        ...plan.textPieces.map((delta) => ({
          type: 'response.output_text.delta',
          body: { item_id: id, content_index: 0, delta, logprobs: [] },
        })),
        { type: 'response.content_part.done', body: { item_id: id, content_index: 0, part } },
      ],
      done: { id, type: 'message', status: 'completed', content: [part], role: 'assistant' },
    })
  }
  plan.toolCalls.forEach((call, position) => {
    const id = `fc_${plan.id}_${position}`
    const base = { id, type: 'function_call', call_id: call.id, name: call.name }
    list.push({
      added: { ...base, status: 'in_progress', arguments: '' },
      events: call.argumentPieces.map((delta) => ({
        type: 'response.function_call_arguments.delta',
        body: { item_id: id, delta },
      })),
      done: { ...base, status: 'completed', arguments: call.argumentPieces.join('') },
    })
  })
  return list
}

function response(plan: CompletionPlan, final: boolean): Record<string, unknown> {
  const incomplete =
    plan.finish === 'length' ? 'max_output_tokens' : plan.finish === 'content_filter' ? 'content_filter' : undefined
  return {
    id: plan.id,
    object: 'response',
    created_at: 1747130500,
    model: plan.model,
    status: !final ? 'in_progress' : incomplete === undefined ? 'completed' : 'incomplete',
    incomplete_details: final && incomplete !== undefined ? { reason: incomplete } : null,
    error: null,
    output: final ? items(plan).map((item) => item.done) : [],
    usage: final ? wireUsage(plan) : null,
  }
}

export const openaiResponsesDialect: FakeDialect = {
  basePath: '/v1',
  route(path, body) {
    return path === '/v1/responses'
      ? { kind: 'completion', stream: body?.stream === true, model: String(body?.model ?? '') }
      : undefined
  },
  completionJson: (plan) => response(plan, true),
  completionFrames(plan) {
    const events: { type: string; body: Record<string, unknown> }[] = [
      { type: 'response.created', body: { response: response(plan, false) } },
      { type: 'response.in_progress', body: { response: response(plan, false) } },
    ]
    items(plan).forEach((item, output_index) => {
      events.push({ type: 'response.output_item.added', body: { output_index, item: item.added } })
      // Keys in OpenAI's order: item_id, output_index, then the event's own.
      for (const event of item.events) {
        const { item_id, ...rest } = event.body
        events.push({ type: event.type, body: { item_id, output_index, ...rest } })
      }
      events.push({ type: 'response.output_item.done', body: { output_index, item: item.done } })
    })
    const final = response(plan, true)
    events.push({
      type: final.status === 'completed' ? 'response.completed' : 'response.incomplete',
      body: { response: final },
    })
    return events.map((event, sequence_number) =>
      sseFrame({ type: event.type, sequence_number, ...event.body }, event.type),
    )
  },
  errorBody: openaiErrorBody,
  embeddingsJson() {
    throw new Error('The Responses fake has no embeddings endpoint')
  },
}
