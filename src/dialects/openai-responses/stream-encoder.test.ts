import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import {
  encodeTranscript,
  expectedClientText,
  loadDialectTranscripts,
  transcriptContext,
} from '../../../test/support/dialect-transcripts.ts'
import { createResponsesStreamEncoder } from './stream-encoder.ts'

const transcripts = loadDialectTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))

for (const transcript of transcripts) {
  test(`responses stream transcript: ${transcript.scenario}`, () => {
    const actual = encodeTranscript(transcript, createResponsesStreamEncoder(transcript.context))
    assert.equal(actual, expectedClientText(transcript, actual))
  })
}

test('sequence numbers count up from 0 without gaps and the stream ends with [DONE]', () => {
  const transcript = transcripts.find((candidate) => candidate.scenario === 'tool-call')
  assert.ok(transcript)
  const text = encodeTranscript(transcript, createResponsesStreamEncoder(transcript.context))
  const numbers = [...text.matchAll(/"sequence_number":(\d+)/g)].map((match) => Number(match[1]))
  assert.deepEqual(
    numbers,
    numbers.map((_, index) => index),
  )
  assert.ok(text.endsWith('data: [DONE]\n\n'))
})

test('nothing is sent after the stream is closed', () => {
  const encoder = createResponsesStreamEncoder(transcriptContext)
  encoder.start()
  assert.notEqual(encoder.fail('upstream_error', 'boom'), '')
  assert.equal(encoder.push({ type: 'text-start', index: 0 }), '')
  assert.equal(encoder.fail('upstream_error', 'again'), '')
})
