import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { assertEverySplit, loadTranscripts, replayChunks } from '../../../test/support/transcripts.ts'
import { ChatStreamParser } from './stream.ts'

const transcripts = loadTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))

test('has the required transcript scenarios', () => {
  assert.deepEqual(transcripts.map((t) => t.scenario).sort(), [
    'cached-usage',
    'error-mid-stream',
    'plain-text',
    'reasoning-compatible',
    'tool-call',
  ])
})

for (const transcript of transcripts) {
  test(`transcript ${transcript.scenario} gives the same events at every split`, () => {
    assertEverySplit(transcript, () => new ChatStreamParser())
  })
}

const encode = (text: string): Uint8Array[] => [new TextEncoder().encode(text)]

test('a stream cut before finish_reason ends with a stream-error', () => {
  const events = replayChunks(
    encode('data: {"id":"c","model":"m","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n'),
    new ChatStreamParser(),
  )
  assert.equal(events.at(-1)?.type, 'stream-error')
})

test('a server that never sends [DONE] still finishes when the body ends after finish_reason', () => {
  const events = replayChunks(
    encode('data: {"id":"c","model":"m","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}\n\n'),
    new ChatStreamParser(),
  )
  assert.deepEqual(events.at(-1), { type: 'message-end', finish_reason: 'stop', native_finish_reason: 'stop' })
})

test('a malformed frame is a stream-error and nothing follows it', () => {
  const parser = new ChatStreamParser()
  const events = replayChunks(
    encode('data: {"id":"c","model":"m","choices":[]}\n\ndata: {not json\n\ndata: [DONE]\n\n'),
    parser,
  )
  assert.deepEqual(
    events.map((event) => event.type),
    ['message-start', 'stream-error'],
  )
})
