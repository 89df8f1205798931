// One question as a Chat Completions request body: the state, the instructions, the options with
// their keys, and "answer with the key only" — so the first generated token is the answer and its
// top log-probabilities give the distribution over the options.
import type { DecisionQuestion } from './decision-request.ts'

export const answerTokens = 16
export const topLogprobs = 20

const system =
  'You answer one question about the given state. Reply with exactly one option key from the list and nothing else: no explanation, no punctuation.'

export function questionBody(
  model: string,
  state: string,
  question: DecisionQuestion,
  passThrough: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const options = question.options
    .map((option) => `${option.key}: ${describe(question, option.label, option.description)}`)
    .join('\n')
  const keys = question.options.map((option) => option.key).join(', ')
  const user = `State:\n${state}\n\nQuestion: ${question.instructions}\n\nOptions:\n${options}\n\nAnswer with one key only (${keys}).`
  return {
    ...passThrough,
    model,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    max_tokens: answerTokens,
    temperature: 0,
    logprobs: true,
    top_logprobs: topLogprobs,
  }
}

function describe(question: DecisionQuestion, label: string, description: string): string {
  if (question.type === 'choice') return description === label ? label : `${label} — ${description}`
  if (question.type === 'score') return `score ${label} — ${description}`
  return description
}
