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

test('options: encoding_format defaults to float (base64 is asked of the upstream too); session_id, input_type, dimensions, user decoded', () => {
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
    encoding_format: 'base64',
  })
  assert.equal(decode({ model: 'm', input: 'x' }).encodingFormat, 'float')
  assert.equal(decode({ model: 'm', input: 'x' }).call.encoding_format, undefined)
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
  assert.deepEqual(JSON.parse(body), {
    object: 'list',
    data: [{ object: 'embedding', embedding: [1], index: 0 }],
    model: 'm',
    id: 'gen-1',
    usage: { prompt_tokens: 2, total_tokens: 2, cost: 0.5 },
  })
})

test('a vector kept as upstream text is copied when the encodings agree and converted when they do not', () => {
  const base64 = JSON.stringify(toBase64Float32([1, -2]))
  const answer = (encodingFormat: 'float' | 'base64') =>
    JSON.parse(
      encodeEmbeddingsResponse({
        generationId: 'gen-2',
        model: 'm"q',
        vectors: [{ format: 'float', json: '[1, -2.5e0]' }, { format: 'base64', json: base64 }, [0.25]],
        promptTokens: 3,
        costUsd: 0,
        encodingFormat,
      }),
    ) as { data: { embedding: unknown; index: number }[]; model: string }
  const floats = answer('float')
  assert.equal(floats.model, 'm"q')
  assert.deepEqual(
    floats.data.map((item) => [item.index, item.embedding]),
    [
      [0, [1, -2.5]],
      [1, [1, -2]],
      [2, [0.25]],
    ],
  )
  assert.deepEqual(
    answer('base64').data.map((item) => item.embedding),
    [toBase64Float32([1, -2.5]), toBase64Float32([1, -2]), toBase64Float32([0.25])],
  )
  // The same text, byte for byte, when the encodings agree.
  const copied = encodeEmbeddingsResponse({
    generationId: 'gen-3',
    model: 'm',
    vectors: [{ format: 'float', json: '[0.123456789012345678, -1e-7]' }],
    promptTokens: 1,
    costUsd: 0,
    encodingFormat: 'float',
  })
  assert.ok(copied.includes('"embedding":[0.123456789012345678, -1e-7]'))
})
