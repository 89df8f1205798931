import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import {
  encodeTranscript,
  expectedClientText,
  loadDialectTranscripts,
  transcriptContext,
} from '../../../test/support/dialect-transcripts.ts'
import { createChatStreamEncoder } from './stream-encoder.ts'

const transcripts = loadDialectTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))

for (const transcript of transcripts) {
  test(`chat stream transcript: ${transcript.scenario}`, () => {
    const actual = encodeTranscript(transcript, createChatStreamEncoder(transcript.context))
    assert.equal(actual, expectedClientText(transcript, actual))
  })
}

test('nothing is sent after the stream is closed', () => {
  const encoder = createChatStreamEncoder(transcriptContext)
  encoder.start()
  assert.notEqual(encoder.fail('upstream_error', 'boom'), '')
  assert.equal(encoder.push({ type: 'text-start', index: 0 }), '')
  assert.equal(encoder.fail('upstream_error', 'again'), '')
})

test('tool call deltas are numbered by tool call, not by output item', () => {
  const encoder = createChatStreamEncoder(transcriptContext)
  encoder.start()
  encoder.push({ type: 'text-start', index: 0 })
  const first = encoder.push({ type: 'tool-call-start', index: 1, id: 'call_a', name: 'f' })
  const second = encoder.push({ type: 'tool-call-start', index: 2, id: 'call_b', name: 'g' })
  assert.match(first, /"tool_calls":\[\{"index":0,"id":"call_a"/)
  assert.match(second, /"tool_calls":\[\{"index":1,"id":"call_b"/)
})
