import { test } from 'node:test'
import assert from 'node:assert/strict'
import { decodeDecisionRequest } from './decision-request.ts'
import { probabilitiesFromLogprobs, questionProbabilities, toAnswer } from './answer-probabilities.ts'

const questions = decodeDecisionRequest(
  {
    model: 'm/x',
    state: 's',
    questions: {
      noul: { type: 'noul', instructions: 'holds?' },
      choice: { type: 'choice', instructions: 'which?', criteria: { red: 'warm', green: 'natural', blue: 'cold' } },
      score: { type: 'score', instructions: 'how much?', criteria: ['none', 'some', 'a lot'] },
    },
  },
  'typesafe/',
).questions
const [noul, choice, score] = questions as [(typeof questions)[0], (typeof questions)[0], (typeof questions)[0]]
const top = (entries: Record<string, number>) => [
  {
    token: Object.keys(entries)[0]!,
    logprob: Math.log(Object.values(entries)[0]!),
    top_logprobs: Object.entries(entries).map(([token, p]) => ({ token, logprob: Math.log(p) })),
  },
]

test('logprobs are summed per key (case and spacing folded) and normalised over the options', () => {
  const probabilities = probabilitiesFromLogprobs(
    top({ A: 0.4, ' a': 0.1, B: 0.25, C: 0.05, maybe: 0.2 }),
    choice.options,
  )!
  assert.ok(Math.abs(probabilities[0]! - 0.625) < 1e-12)
  assert.ok(Math.abs(probabilities[1]! - 0.3125) < 1e-12)
  assert.ok(Math.abs(probabilities[2]! - 0.0625) < 1e-12)
  assert.ok(Math.abs(probabilities.reduce((sum, value) => sum + value, 0) - 1) < 1e-6)
})

test('answers: noul is P(true); choice and score pick the most probable option', () => {
  const noulAnswer = toAnswer(
    noul,
    questionProbabilities(noul, 'true', top({ true: 0.6, false: 0.2 })).probabilities,
  ) as { noul: number }
  assert.ok(Math.abs(noulAnswer.noul - 0.75) < 1e-12)
  const choiceAnswer = toAnswer(choice, [0.2, 0.5, 0.3]) as {
    choice: string
    confidence: number
    probabilities: Record<string, number>
  }
  assert.deepEqual(choiceAnswer, {
    type: 'choice',
    choice: 'green',
    confidence: 0.5,
    probabilities: { red: 0.2, green: 0.5, blue: 0.3 },
  })
  assert.deepEqual(toAnswer(score, [0.1, 0.1, 0.8]), {
    type: 'score',
    score: 2,
    confidence: 0.8,
    probabilities: { 0: 0.1, 1: 0.1, 2: 0.8 },
    legend: { 0: 'none', 1: 'some', 2: 'a lot' },
  })
})

test('without logprobs the answer text decides (key or label); an answer naming no option is a 502', () => {
  assert.deepEqual(questionProbabilities(choice, ' B.', null), { method: 'answer', probabilities: [0, 1, 0] })
  assert.deepEqual(questionProbabilities(choice, 'blue', null), { method: 'answer', probabilities: [0, 0, 1] })
  assert.deepEqual(questionProbabilities(score, '1', []), { method: 'answer', probabilities: [0, 1, 0] })
  assert.throws(
    () => questionProbabilities(score, 'I cannot say', null),
    (error: Error & { status?: number }) => error.status === 502 && /question score/.test(error.message),
  )
})
