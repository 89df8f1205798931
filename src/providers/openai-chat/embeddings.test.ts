import { test } from 'node:test'
import assert from 'node:assert/strict'
import { openaiEmbeddings } from './embeddings.ts'

const settings = { slug: 'o', apiKey: 'k', baseUrl: 'https://api.openai.com/v1' }

test('request: one text as a string, many as a list, token arrays and parts as given; floats asked by default; input_type passed', () => {
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

const parse = (body: unknown, inputs: number) => openaiEmbeddings.parseResponse(JSON.stringify(body), inputs)

test('response: vectors placed by index; usage read; a count mismatch is an upstream error', () => {
  const result = parse(
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
  assert.deepEqual(result, {
    vectors: [
      { format: 'float', json: '[1]' },
      { format: 'float', json: '[2]' },
    ],
    model: 'm',
    prompt_tokens: 7,
  })
  assert.equal(parse({ data: [{ embedding: [1] }] }, 1).prompt_tokens, null)
  assert.throws(() => parse({ data: [{ embedding: [1] }] }, 2), /1 embeddings for 2 inputs/)
  assert.throws(() => parse({ data: [{ embedding: [1, 'x'] }] }, 1), /not an array of numbers/)
  assert.throws(() => parse({ data: [{ embedding: 'not base64!' }] }, 1), /not an array of numbers/)
  assert.throws(() => openaiEmbeddings.parseResponse('{"data": [', 1), SyntaxError)
})

test('response: vectors are kept as the upstream sent them, floats and base64, with any spacing', () => {
  const text =
    '{\n  "object": "list",\n  "data": [\n    {"object": "embedding", "index": 0, "embedding" : [ 0.0123456789012345678, -1.5E-3 , 2 ]},\n' +
    '    {"object": "embedding", "index": 1, "embedding": "AACAPwAAAMA="}\n  ],\n  "model": "text-embedding-3-small",\n' +
    '  "usage": {"prompt_tokens": 4, "total_tokens": 4}\n}'
  assert.deepEqual(openaiEmbeddings.parseResponse(text, 2), {
    vectors: [
      { format: 'float', json: '[ 0.0123456789012345678, -1.5E-3 , 2 ]' },
      { format: 'base64', json: '"AACAPwAAAMA="' },
    ],
    model: 'text-embedding-3-small',
    prompt_tokens: 4,
  })
})

test('response: an answer of another shape is parsed whole, and still checked', () => {
  // "embedding" also names a key outside data: the whole answer is parsed.
  const extra = parse({ data: [{ embedding: [1, 2] }], meta: { embedding: [3] }, usage: { prompt_tokens: 2 } }, 1)
  assert.deepEqual(extra, { vectors: [[1, 2]], model: '', prompt_tokens: 2 })
  // A nested array is not a flat vector: parsed whole, and refused.
  assert.throws(() => parse({ data: [{ embedding: [[1], 2] }] }, 1), /not an array of numbers/)
  // Words in place of numbers: never passed through.
  assert.throws(() => parse({ data: [{ embedding: [1, null] }] }, 1), /not an array of numbers/)
  assert.throws(() => parse({ data: [{ embedding: [true, 2] }] }, 1), /not an array of numbers/)
  for (const word of ['NaN', '-Infinity', 'nan', 'inf'])
    assert.throws(() => openaiEmbeddings.parseResponse(`{"data":[{"embedding":[1,${word}]}]}`, 1), SyntaxError)
  // Two items claiming one index.
  const twice = {
    data: [
      { index: 0, embedding: [1] },
      { index: 0, embedding: [2] },
    ],
  }
  assert.throws(() => parse(twice, 2), /twice/)
})

test('request: the encoding the client asked for is asked of the upstream', () => {
  const request = openaiEmbeddings.buildRequest(
    { model: 'm', inputs: [{ type: 'text', text: 'hi' }], encoding_format: 'base64' },
    settings,
  )
  assert.equal(request.body.encoding_format, 'base64')
})
