import { test } from 'node:test'
import assert from 'node:assert/strict'
import { batchResultBody } from './batch-result-body.ts'

test('every choice of a stored chat result has logprobs with content[] and refusal[] arrays', () => {
  const entry = { token: 'Hi', logprob: -0.1, bytes: null, top_logprobs: [] }
  const body = {
    id: 'gen-1',
    choices: [
      { index: 0, finish_reason: 'stop', logprobs: null },
      { index: 1, finish_reason: 'stop', logprobs: { content: [entry], refusal: null } },
    ],
  }
  assert.deepEqual(batchResultBody(body), {
    id: 'gen-1',
    choices: [
      { index: 0, finish_reason: 'stop', logprobs: { content: [], refusal: [] } },
      { index: 1, finish_reason: 'stop', logprobs: { content: [entry], refusal: [] } },
    ],
  })
})

test('bodies without choices (embeddings, Responses) are stored as answered', () => {
  const embeddings = { object: 'list', data: [{ embedding: [0.1] }] }
  assert.equal(batchResultBody(embeddings), embeddings)
})
