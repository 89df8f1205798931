import { test } from 'node:test'
import assert from 'node:assert/strict'
import { openaiEmbeddings } from './embeddings.ts'

const settings = { slug: 'o', apiKey: 'k', baseUrl: 'https://api.openai.com/v1' }

test('request: one text as a string, many as a list, token arrays and parts as given; floats asked; input_type passed', () => {
  const one = openaiEmbeddings.buildRequest(
    {
      model: 'text-embedding-3-small',
      inputs: [{ type: 'text', text: 'hi' }],
      dimensions: 256,
      input_type: 'search_query',
    },
    settings,
  )
  assert.equal(one.path, '/embeddings')
  assert.deepEqual(one.body, {
    model: 'text-embedding-3-small',
    input: 'hi',
    encoding_format: 'float',
    dimensions: 256,
    input_type: 'search_query',
  })
  const many = openaiEmbeddings.buildRequest(
    {
      model: 'm',
      inputs: [
        { type: 'text', text: 'a' },
        { type: 'tokens', tokens: [1, 2] },
        { type: 'parts', parts: [{ type: 'image_url', url: 'https://x/y.png' }] },
      ],
    },
    settings,
  )
  assert.deepEqual(many.body.input, [
    'a',
    [1, 2],
    { content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] },
  ])
})

test('response: vectors placed by index; usage read; a count mismatch is an upstream error', () => {
  const result = openaiEmbeddings.parseResponse(
    {
      data: [
        { index: 1, embedding: [2] },
        { index: 0, embedding: [1] },
      ],
      model: 'm',
      usage: { prompt_tokens: 7, total_tokens: 7 },
    },
    2,
  )
  assert.deepEqual(result, { vectors: [[1], [2]], model: 'm', prompt_tokens: 7 })
  assert.equal(openaiEmbeddings.parseResponse({ data: [{ embedding: [1] }] }, 1).prompt_tokens, null)
  assert.throws(() => openaiEmbeddings.parseResponse({ data: [{ embedding: [1] }] }, 2), /1 embeddings for 2 inputs/)
  assert.throws(() => openaiEmbeddings.parseResponse({ data: [{ embedding: 'AAAA' }] }, 1), /not an array of numbers/)
})
