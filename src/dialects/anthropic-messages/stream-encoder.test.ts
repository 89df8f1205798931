import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import {
  encodeTranscript,
  expectedClientText,
  loadDialectTranscripts,
  transcriptContext,
} from '../../../test/support/dialect-transcripts.ts'
import { createMessagesStreamEncoder } from './stream-encoder.ts'

const transcripts = loadDialectTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))

for (const transcript of transcripts) {
  test(`messages stream transcript: ${transcript.scenario}`, () => {
    const actual = encodeTranscript(transcript, createMessagesStreamEncoder(transcript.context))
    assert.equal(actual, expectedClientText(transcript, actual))
  })
}

test('nothing is sent after the stream is closed', () => {
  const encoder = createMessagesStreamEncoder(transcriptContext)
  encoder.start()
  assert.notEqual(encoder.fail('upstream_error', 'boom'), '')
  assert.equal(encoder.push({ type: 'text-start', index: 0 }), '')
  assert.equal(encoder.fail('upstream_error', 'again'), '')
})
