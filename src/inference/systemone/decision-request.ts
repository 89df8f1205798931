// The POST /systemone body, validated by hand so that every malformed question gets a 400 naming it:
// `model` (bare ids map onto the configured vendor namespace), `state` (string, object or array),
// `questions` (name -> {type, instructions, criteria}), and the routing extras passed on as is.
import { GatewayError } from '../../domain/errors.ts'

export type QuestionType = 'noul' | 'choice' | 'score'

export interface QuestionOption {
  /** What the model is asked to answer with: `true`/`false`, a letter, or a score digit. */
  readonly key: string
  /** The label reported back: `true`/`false`, the choice label, or the score index. */
  readonly label: string
  readonly description: string
}

export interface DecisionQuestion {
  readonly name: string
  readonly type: QuestionType
  readonly instructions: string
  readonly options: readonly QuestionOption[]
}

export interface DecisionRequest {
  readonly model: string
  readonly state: string
  readonly questions: readonly DecisionQuestion[]
  /** provider, session_id, trace, user: passed to every question's call as the client sent them. */
  readonly passThrough: Readonly<Record<string, unknown>>
}

const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
export const maxQuestions = 32
const maxOptions = letters.length

type Rendered = string

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Text for a prompt: strings as they are, objects and arrays as JSON. */
function render(value: unknown): Rendered {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

function isContent(value: unknown): boolean {
  return typeof value === 'string' || Array.isArray(value) || isObject(value)
}

function invalid(message: string): GatewayError {
  return new GatewayError('invalid_request', `Invalid request parameters: ${message}`)
}

export function decodeDecisionRequest(body: unknown, namespace: string): DecisionRequest {
  if (!isObject(body)) throw invalid('the body must be a JSON object with model, state and questions')
  if (typeof body.model !== 'string' || body.model.trim() === '')
    throw invalid('model is required (a model id such as typesafe/jev-1 or a bare id)')
  if (!('state' in body) || !isContent(body.state))
    throw invalid('state is required and must be a string, an object or an array')
  if (!isObject(body.questions) || Object.keys(body.questions).length === 0)
    throw invalid('questions must be an object mapping each question name to {type, instructions, criteria}')
  const entries = Object.entries(body.questions)
  if (entries.length > maxQuestions)
    throw invalid(`at most ${maxQuestions} questions per request (got ${entries.length})`)
  if (body.session_id !== undefined && (typeof body.session_id !== 'string' || body.session_id.length > 256))
    throw invalid('session_id must be a string of at most 256 characters')
  if (body.user !== undefined && typeof body.user !== 'string') throw invalid('user must be a string')
  if (body.trace !== undefined && body.trace !== null && !isObject(body.trace)) throw invalid('trace must be an object')
  if (body.provider !== undefined && body.provider !== null && !isObject(body.provider))
    throw invalid('provider must be an object of routing preferences')
  const passThrough: Record<string, unknown> = {}
  for (const field of ['provider', 'session_id', 'trace', 'user'] as const)
    if (body[field] !== undefined && body[field] !== null) passThrough[field] = body[field]
  return {
    model: body.model.includes('/') ? body.model : `${namespace}${body.model}`,
    state: render(body.state),
    questions: entries.map(([name, question]) => decodeQuestion(name, question)),
    passThrough,
  }
}

function decodeQuestion(name: string, question: unknown): DecisionQuestion {
  const where = `questions.${name}`
  if (!isObject(question)) throw invalid(`${where} must be an object {type, instructions, criteria}`)
  const type = question.type
  if (type !== 'noul' && type !== 'choice' && type !== 'score')
    throw invalid(`${where}.type must be one of noul, choice, score`)
  if (!isContent(question.instructions) || question.instructions === '')
    throw invalid(`${where}.instructions is required (a string, an object or an array)`)
  return {
    name,
    type,
    instructions: render(question.instructions),
    options: optionDecoders[type](question.criteria, where),
  }
}

const optionDecoders: Readonly<Record<QuestionType, (criteria: unknown, where: string) => QuestionOption[]>> = {
  noul(criteria, where) {
    if (criteria === undefined || criteria === null) {
      return [
        { key: 'true', label: 'true', description: 'the statement holds' },
        { key: 'false', label: 'false', description: 'the statement does not hold' },
      ]
    }
    const keys = isObject(criteria) ? Object.keys(criteria).sort() : []
    if (
      !isObject(criteria) ||
      keys.length !== 2 ||
      keys[0] !== 'false' ||
      keys[1] !== 'true' ||
      !isContent(criteria.true) ||
      !isContent(criteria.false)
    ) {
      throw invalid(
        `${where}.criteria of a noul question must be an object with exactly the keys true and false, each a description`,
      )
    }
    return [
      { key: 'true', label: 'true', description: render(criteria.true) },
      { key: 'false', label: 'false', description: render(criteria.false) },
    ]
  },
  choice(criteria, where) {
    if (!isObject(criteria))
      throw invalid(
        `${where}.criteria of a choice question must be an object mapping each choice label to its description`,
      )
    const labels = Object.entries(criteria)
    if (labels.length < 2 || labels.length > maxOptions)
      throw invalid(`${where}.criteria of a choice question needs 2 to ${maxOptions} labels (got ${labels.length})`)
    for (const [label, description] of labels) {
      if (label === '' || (description !== null && !isContent(description)))
        throw invalid(
          `${where}.criteria.${label} must be a description (string, object, array or null) under a non-empty label`,
        )
    }
    return labels.map(([label, description], index) => ({
      key: letters[index]!,
      label,
      description: description === null ? label : render(description),
    }))
  },
  score(criteria, where) {
    if (!Array.isArray(criteria))
      throw invalid(`${where}.criteria of a score question must be an array of criteria; position = score index`)
    if (criteria.length < 2 || criteria.length > maxOptions)
      throw invalid(`${where}.criteria of a score question needs 2 to ${maxOptions} entries (got ${criteria.length})`)
    criteria.forEach((criterion, index) => {
      if (!isContent(criterion) || criterion === '')
        throw invalid(`${where}.criteria[${index}] must be a non-empty description (string, object or array)`)
    })
    const keyOf = (index: number) => (criteria.length <= 10 ? String(index) : letters[index]!)
    return criteria.map((criterion, index) => ({
      key: keyOf(index),
      label: String(index),
      description: render(criterion),
    }))
  },
}
