import { test } from 'node:test'
import assert from 'node:assert/strict'
import { decodeDecisionRequest } from './decision-request.ts'

const valid = {
  model: 'jev-1',
  state: { ticket: 'My order never arrived' },
  questions: {
    refund: {
      type: 'noul',
      instructions: 'Does the customer ask for a refund?',
      criteria: { true: 'asks for money back', false: 'does not' },
    },
    topic: { type: 'choice', instructions: 'Topic?', criteria: { shipping: 'delivery problems', billing: null } },
    urgency: { type: 'score', instructions: 'How urgent?', criteria: ['not urgent', 'somewhat', 'very urgent'] },
  },
}

test('bare model ids map onto the namespace; namespaced ids are kept; options get keys', () => {
  const decoded = decodeDecisionRequest(valid, 'typesafe/')
  assert.equal(decoded.model, 'typesafe/jev-1')
  assert.equal(decodeDecisionRequest({ ...valid, model: 'acme/x' }, 'typesafe/').model, 'acme/x')
  assert.deepEqual(
    decoded.questions.map((question) => question.options.map((option) => option.key)),
    [
      ['true', 'false'],
      ['A', 'B'],
      ['0', '1', '2'],
    ],
  )
  assert.equal(decoded.questions[1]!.options[1]!.description, 'billing')
  assert.equal(decoded.state, '{"ticket":"My order never arrived"}')
  assert.equal(decodeDecisionRequest({ ...valid, state: ['a', 1] }, 'typesafe/').state, '["a",1]')
  assert.equal(decodeDecisionRequest({ ...valid, state: 'plain' }, 'typesafe/').state, 'plain')
})

test('a noul question may omit criteria', () => {
  const decoded = decodeDecisionRequest(
    { ...valid, questions: { q: { type: 'noul', instructions: 'Is it raining?' } } },
    'typesafe/',
  )
  assert.deepEqual(
    decoded.questions[0]!.options.map((option) => option.label),
    ['true', 'false'],
  )
})

const malformed: readonly [string, unknown, RegExp][] = [
  [
    'unknown type',
    { type: 'rank', instructions: 'x', criteria: [] },
    /questions\.q\.type must be one of noul, choice, score/,
  ],
  ['question not an object', 'yes?', /questions\.q must be an object/],
  ['missing instructions', { type: 'noul' }, /questions\.q\.instructions is required/],
  [
    'noul criteria with other keys',
    { type: 'noul', instructions: 'x', criteria: { yes: 'a', no: 'b' } },
    /questions\.q\.criteria of a noul question must be an object with exactly the keys true and false/,
  ],
  [
    'noul criteria missing false',
    { type: 'noul', instructions: 'x', criteria: { true: 'a' } },
    /questions\.q\.criteria of a noul question/,
  ],
  [
    'noul criteria as an array',
    { type: 'noul', instructions: 'x', criteria: ['a', 'b'] },
    /questions\.q\.criteria of a noul question/,
  ],
  [
    'choice criteria as an array',
    { type: 'choice', instructions: 'x', criteria: ['a', 'b'] },
    /questions\.q\.criteria of a choice question must be an object mapping each choice label/,
  ],
  [
    'choice with one label',
    { type: 'choice', instructions: 'x', criteria: { only: 'one' } },
    /questions\.q\.criteria of a choice question needs 2 to 26 labels/,
  ],
  [
    'choice description a number',
    { type: 'choice', instructions: 'x', criteria: { a: 1, b: 'two' } },
    /questions\.q\.criteria\.a must be a description/,
  ],
  [
    'score criteria as an object',
    { type: 'score', instructions: 'x', criteria: { low: 'a' } },
    /questions\.q\.criteria of a score question must be an array/,
  ],
  [
    'score with one entry',
    { type: 'score', instructions: 'x', criteria: ['only'] },
    /questions\.q\.criteria of a score question needs 2 to 26 entries/,
  ],
  [
    'score entry empty',
    { type: 'score', instructions: 'x', criteria: ['low', ''] },
    /questions\.q\.criteria\[1\] must be a non-empty description/,
  ],
]

for (const [name, question, message] of malformed) {
  test(`400 naming the question: ${name}`, () => {
    assert.throws(
      () => decodeDecisionRequest({ ...valid, questions: { ...valid.questions, q: question } }, 'typesafe/'),
      (error: Error & { status?: number }) => {
        assert.equal(error.status, 400)
        assert.match(error.message, message)
        return true
      },
    )
  })
}

test('the request itself: model, state and questions are required', () => {
  assert.throws(() => decodeDecisionRequest({ ...valid, model: '' }, 'typesafe/'), /model is required/)
  assert.throws(
    () => decodeDecisionRequest({ model: 'x', questions: valid.questions }, 'typesafe/'),
    /state is required/,
  )
  assert.throws(() => decodeDecisionRequest({ ...valid, state: 42 }, 'typesafe/'), /state is required/)
  assert.throws(() => decodeDecisionRequest({ ...valid, questions: {} }, 'typesafe/'), /questions must be an object/)
  assert.throws(() => decodeDecisionRequest({ ...valid, session_id: 'x'.repeat(257) }, 'typesafe/'), /session_id/)
})
