import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { foldStreamEvents } from '../../domain/inference/fold-stream-events.ts'
import { assertEverySplit, loadTranscripts, replayChunks } from '../../../test/support/transcripts.ts'
import { parseGeminiResponse } from './response.ts'
import { GeminiStreamParser } from './stream.ts'

const transcripts = loadTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))

test('has the required transcript scenarios', () => {
  assert.deepEqual(transcripts.map((t) => t.scenario).sort(), [
    'cached-usage',
    'error-mid-stream',
    'plain-text',
    'thinking',
    'tool-call',
  ])
})

for (const transcript of transcripts) {
  test(`transcript ${transcript.scenario} gives the same events at every split`, () => {
    assertEverySplit(transcript, () => new GeminiStreamParser())
  })
}

test('a folded stream equals parsing the same parts as one generateContent body', () => {
  const transcript = transcripts.find((t) => t.scenario === 'tool-call')
  assert.ok(transcript)
  const frame = JSON.parse(new TextDecoder().decode(transcript.upstream).trim().slice('data: '.length)) as unknown
  assert.deepEqual(
    foldStreamEvents(replayChunks([transcript.upstream], new GeminiStreamParser())),
    parseGeminiResponse(frame),
  )
})

test('a body that ends without a finishReason is a stream-error', () => {
  const bytes = new TextEncoder().encode(
    'data: {"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"index":0}],"responseId":"r"}\r\n\r\n',
  )
  assert.deepEqual(
    replayChunks([bytes], new GeminiStreamParser()).map((event) => event.type),
    ['message-start', 'text-start', 'text-delta', 'stream-error'],
  )
})

test('a blocked prompt finishes with content_filter', () => {
  const bytes = new TextEncoder().encode(
    'data: {"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":4,"totalTokenCount":4},"responseId":"r","modelVersion":"g"}\r\n\r\n',
  )
  assert.deepEqual(replayChunks([bytes], new GeminiStreamParser()).at(-1), {
    type: 'message-end',
    finish_reason: 'content_filter',
    native_finish_reason: 'SAFETY',
  })
})
