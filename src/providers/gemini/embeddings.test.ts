import { test } from 'node:test'
import assert from 'node:assert/strict'
import { geminiEmbeddings } from './embeddings.ts'

const settings = { slug: 'g', apiKey: 'g', baseUrl: 'https://generativelanguage.googleapis.com' }

test('one input -> embedContent with taskType and outputDimensionality; many -> batchEmbedContents', () => {
  const one = geminiEmbeddings.buildRequest(
    {
      model: 'models/text-embedding-004',
      inputs: [{ type: 'text', text: 'hi' }],
      input_type: 'search_query',
      dimensions: 64,
    },
    settings,
  )
  assert.equal(one.path, '/v1beta/models/text-embedding-004:embedContent')
  assert.deepEqual(one.body, {
    content: { parts: [{ text: 'hi' }] },
    taskType: 'RETRIEVAL_QUERY',
    outputDimensionality: 64,
  })
  const many = geminiEmbeddings.buildRequest(
    {
      model: 'e',
      inputs: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
      input_type: 'CLUSTERING',
    },
    settings,
  )
  assert.equal(many.path, '/v1beta/models/e:batchEmbedContents')
  assert.deepEqual(many.body, {
    requests: [
      { model: 'models/e', content: { parts: [{ text: 'a' }] }, taskType: 'CLUSTERING' },
      { model: 'models/e', content: { parts: [{ text: 'b' }] }, taskType: 'CLUSTERING' },
    ],
  })
  assert.throws(
    () => geminiEmbeddings.buildRequest({ model: 'e', inputs: [{ type: 'tokens', tokens: [1] }] }, settings),
    /token arrays/,
  )
})

test('responses: embedding.values or embeddings[].values; no token count (null)', () => {
  assert.deepEqual(geminiEmbeddings.parseResponse(JSON.stringify({ embedding: { values: [0.5] } }), 1), {
    vectors: [[0.5]],
    model: '',
    prompt_tokens: null,
  })
  assert.deepEqual(
    geminiEmbeddings.parseResponse(JSON.stringify({ embeddings: [{ values: [1] }, { values: [2] }] }), 2).vectors,
    [[1], [2]],
  )
  assert.throws(
    () => geminiEmbeddings.parseResponse(JSON.stringify({ embeddings: [{ values: [1] }] }), 2),
    /1 embeddings for 2 inputs/,
  )
})
