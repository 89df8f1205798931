import { test } from 'node:test'
import assert from 'node:assert/strict'
import { checkInputSize, createEmbeddingsDecoder } from './decode-request.ts'
import { encodeEmbeddingsResponse, toBase64Float32 } from './encode-response.ts'

const decode = createEmbeddingsDecoder()

test('input shapes: text, texts, one token array, many token arrays, multimodal parts', () => {
  assert.deepEqual(decode({ model: 'm', input: 'hi' }).call.inputs, [{ type: 'text', text: 'hi' }])
  assert.deepEqual(decode({ model: 'm', input: ['a', 'b'] }).call.inputs.length, 2)
  assert.deepEqual(decode({ model: 'm', input: [1, 2, 3] }).call.inputs, [{ type: 'tokens', tokens: [1, 2, 3] }])
  assert.deepEqual(decode({ model: 'm', input: [[1], [2, 3]] }).call.inputs, [
    { type: 'tokens', tokens: [1] },
    { type: 'tokens', tokens: [2, 3] },
  ])
  const parts = decode({
    model: 'm',
    input: [
      {
        content: [
          { type: 'text', text: 'cat' },
          { type: 'image_url', image_url: { url: 'u' } },
        ],
      },
    ],
  })
  assert.deepEqual(parts.call.inputs, [
    {
      type: 'parts',
      parts: [
        { type: 'text', text: 'cat' },
        { type: 'image_url', url: 'u' },
      ],
    },
  ])
  assert.equal(parts.inputSize, 4)
})

test('options: encoding_format defaults to float; session_id, input_type, dimensions, user decoded', () => {
  const decoded = decode({
    model: 'm',
    input: 'x',
    encoding_format: 'base64',
    dimensions: 3,
    input_type: 'search_document',
    session_id: 's',
    user: 'u',
  })
  assert.equal(decoded.encodingFormat, 'base64')
  assert.equal(decoded.sessionId, 's')
  assert.deepEqual(decoded.call, {
    inputs: [{ type: 'text', text: 'x' }],
    dimensions: 3,
    input_type: 'search_document',
    user: 'u',
  })
  assert.equal(decode({ model: 'm', input: 'x' }).encodingFormat, 'float')
})

test('refusals name the field: empty input, dimensions < 1, bad encoding_format, long session_id; size over the maximum is 413', () => {
  assert.throws(() => decode({ model: 'm', input: '' }), /input/)
  assert.throws(() => decode({ model: 'm', input: [] }), /input/)
  assert.throws(() => decode({ model: 'm', input: 'x', dimensions: 0 }), /dimensions/)
  assert.throws(() => decode({ model: 'm', input: 'x', encoding_format: 'int8' }), /encoding_format/)
  assert.throws(() => decode({ model: 'm', input: 'x', session_id: 's'.repeat(257) }), /session_id/)
  assert.throws(() => decode({ input: 'x' }), /model/)
  assert.throws(
    () => checkInputSize(decode({ model: 'm', input: 'abcd' }), 3),
    (error: Error & { status?: number }) => error.status === 413,
  )
  checkInputSize(decode({ model: 'm', input: 'abc' }), 3)
})

test('base64 is little-endian float32 per vector', () => {
  assert.equal(toBase64Float32([1, -2]), Buffer.from([0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0]).toString('base64'))
  const body = encodeEmbeddingsResponse({
    generationId: 'gen-1',
    model: 'm',
    vectors: [[1]],
    promptTokens: 2,
    costUsd: 0.5,
    encodingFormat: 'float',
  })
  assert.deepEqual(body, {
    object: 'list',
    data: [{ object: 'embedding', embedding: [1], index: 0 }],
    model: 'm',
    id: 'gen-1',
    usage: { prompt_tokens: 2, total_tokens: 2, cost: 0.5 },
  })
})
