// From a model's answer to a question's probabilities, and from those to the public answer.
//
// - logprobs: the first answer position whose top log-probabilities name any option key; each
//   option's mass is the sum of exp(logprob) over the tokens equal to its key (trimmed, case-folded,
//   so "A", " A" and "a" all count), then normalised over the options (so they sum to 1).
// - answer (fallback when the endpoint reports no logprobs): the answer text is matched to one option
//   (its key, or its label); that option gets probability 1 and the others 0.
import { GatewayError } from '../../domain/errors.ts'
import type { DecisionQuestion, QuestionOption } from './decision-request.ts'

export type ProbabilityMethod = 'logprobs' | 'answer'

export interface ChatLogprob {
  readonly token: string
  readonly logprob: number
  readonly top_logprobs?: readonly { readonly token: string; readonly logprob: number }[] | null
}

function normalise(token: string): string {
  return token
    .trim()
    .replace(/^["'`*(]+|["'`*).:,]+$/g, '')
    .toLowerCase()
}

export function probabilitiesFromLogprobs(
  logprobs: readonly ChatLogprob[],
  options: readonly QuestionOption[],
): number[] | null {
  const keys = options.map((option) => option.key.toLowerCase())
  for (const position of logprobs) {
    const candidates =
      position.top_logprobs !== undefined && position.top_logprobs !== null && position.top_logprobs.length > 0
        ? position.top_logprobs
        : [position]
    const mass = keys.map(() => 0)
    for (const candidate of candidates) {
      const index = keys.indexOf(normalise(candidate.token))
      if (index !== -1) mass[index]! += Math.exp(candidate.logprob)
    }
    const total = mass.reduce((sum, value) => sum + value, 0)
    if (total > 0) return mass.map((value) => value / total)
  }
  return null
}

export function probabilitiesFromAnswer(text: string, options: readonly QuestionOption[]): number[] | null {
  const answer = normalise(text.split(/\s+/).find((word) => word.trim() !== '') ?? '')
  const whole = normalise(text)
  const index = options.findIndex(
    (option) => option.key.toLowerCase() === answer || option.label.toLowerCase() === whole,
  )
  return index === -1 ? null : options.map((_, position) => (position === index ? 1 : 0))
}

/** The method used and the probabilities, or a 502 when the model's answer names no option. */
export function questionProbabilities(
  question: DecisionQuestion,
  text: string,
  logprobs: readonly ChatLogprob[] | null,
): { method: ProbabilityMethod; probabilities: number[] } {
  const fromLogprobs = logprobs === null ? null : probabilitiesFromLogprobs(logprobs, question.options)
  if (fromLogprobs !== null) return { method: 'logprobs', probabilities: fromLogprobs }
  const fromAnswer = probabilitiesFromAnswer(text, question.options)
  if (fromAnswer !== null) return { method: 'answer', probabilities: fromAnswer }
  const keys = question.options.map((option) => option.key).join(', ')
  throw new GatewayError(
    'upstream_error',
    `The model answered ${JSON.stringify(text.slice(0, 80))} to question ${question.name}, which is none of the options (${keys}); retry or use a model that follows instructions or reports logprobs`,
  )
}

/** The public answer. The chosen option is the most probable one (the first on a tie). */
export function toAnswer(question: DecisionQuestion, probabilities: readonly number[]): Record<string, unknown> {
  let best = 0
  probabilities.forEach((value, index) => {
    if (value > probabilities[best]!) best = index
  })
  const confidence = probabilities[best]!
  const byLabel = Object.fromEntries(question.options.map((option, index) => [option.label, probabilities[index]!]))
  if (question.type === 'noul') return { type: 'noul', noul: byLabel.true! }
  if (question.type === 'choice')
    return { type: 'choice', choice: question.options[best]!.label, confidence, probabilities: byLabel }
  return {
    type: 'score',
    score: best,
    confidence,
    probabilities: byLabel,
    legend: Object.fromEntries(question.options.map((option) => [option.label, option.description])),
  }
}
