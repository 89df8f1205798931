// The Batch object GET /batches/{id} answers, for the OpenAPI document: its `results[]` items and the
// `alignment` object a chat, Responses or Messages result body carries (OpenRouter's `Alignment` model).
// The route serializes its answer as built; these schemas describe it.
import { Type } from 'typebox'

const RuleRecord = Type.Object({
  broken: Type.Boolean({ description: 'Whether probability is at or above the threshold' }),
  probability: Type.Number({ description: "The evaluator's probability that the message breaks the rule" }),
})

const call = Type.Integer({ minimum: 1, description: 'Number of the record, from 1; a retry continues the numbering' })
const rules = Type.Array(RuleRecord, { description: 'One record per rule, in the order of `rules` in the request' })

export const AlignmentSchema = Type.Object(
  {
    calls: Type.Array(
      Type.Union([
        Type.Object({ call, outcome: Type.Literal('allowed'), rules }),
        Type.Object({ call, outcome: Type.Literal('blocked'), rules }),
        Type.Object({
          call,
          outcome: Type.Literal('unavailable'),
          reason: Type.Union([Type.Literal('evaluator_error'), Type.Literal('malformed_answer')]),
        }),
      ]),
      { description: 'One record per evaluated assistant message, in the order the messages were produced' },
    ),
  },
  { description: 'The result of the alignment plugin; `{calls: []}` when the line names no rule' },
)

const Logprobs = Type.Object({ content: Type.Array(Type.Unknown()), refusal: Type.Array(Type.Unknown()) })

const ResultBody = Type.Object(
  {
    choices: Type.Optional(
      Type.Array(
        Type.Object({
          finish_reason: Type.Union([Type.String(), Type.Null()]),
          index: Type.Integer(),
          logprobs: Logprobs,
        }),
      ),
    ),
    alignment: Type.Optional(AlignmentSchema),
  },
  {
    description:
      "The endpoint's normal answer body; chat choices' logprobs are always {content[], refusal[]}, and chat, Responses and Messages bodies carry `alignment`",
  },
)

const ItemError = Type.Object({
  type: Type.String(),
  message: Type.String(),
  param: Type.Union([Type.String(), Type.Null()]),
  error_type: Type.Optional(Type.String({ description: 'An ApiErrorType value' })),
})

export const BatchResultSchema = Type.Object({
  custom_id: Type.String(),
  id: Type.String({ description: "The line's generation id" }),
  error: Type.Union([ItemError, Type.Null()]),
  response: Type.Union([Type.Object({ status_code: Type.Integer(), body: ResultBody }), Type.Null()]),
})

const unixSeconds = Type.Union([Type.Integer(), Type.Null()])

export const BatchSchema = Type.Object({
  id: Type.String(),
  object: Type.Literal('batch'),
  endpoint: Type.String(),
  model: Type.String(),
  status: Type.String(),
  completion_window: Type.String(),
  created_at: Type.Integer(),
  finalized_at: unixSeconds,
  expires_at: unixSeconds,
  request_counts: Type.Object({ total: Type.Integer(), completed: Type.Integer(), failed: Type.Integer() }),
  error: Type.Union([Type.Object({ message: Type.String() }), Type.Null()]),
  callback_url: Type.Union([Type.String(), Type.Null()]),
  results: Type.Union([Type.Array(BatchResultSchema), Type.Null()], {
    description: 'Present once the batch has ended; null while it runs and in the 402 answer',
  }),
})
