import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { foldStreamEvents } from '../../domain/inference/fold-stream-events.ts'
import { assertEverySplit, loadTranscripts, replayChunks } from '../../../test/support/transcripts.ts'
import { parseResponsesResponse } from './response.ts'
import { ResponsesStreamParser } from './stream.ts'

const transcripts = loadTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))

test('has the required transcript scenarios', () => {
  assert.deepEqual(transcripts.map((t) => t.scenario).sort(), [
    'cached-usage',
    'error-mid-stream',
    'plain-text',
    'reasoning',
    'tool-call',
  ])
})

for (const transcript of transcripts) {
  test(`transcript ${transcript.scenario} gives the same events at every split`, () => {
    assertEverySplit(transcript, () => new ResponsesStreamParser())
  })
}

test('a folded stream equals parsing the final response object it ends with', () => {
  for (const scenario of ['plain-text', 'tool-call', 'reasoning', 'cached-usage']) {
    const transcript = transcripts.find((t) => t.scenario === scenario)
    assert.ok(transcript)
    const text = new TextDecoder().decode(transcript.upstream)
    const last = text.trim().split('\n').at(-1)?.slice('data: '.length) ?? ''
    const final = (JSON.parse(last) as { response: unknown }).response
    assert.deepEqual(
      foldStreamEvents(replayChunks([transcript.upstream], new ResponsesStreamParser())),
      parseResponsesResponse(final),
      scenario,
    )
  }
})

test('response.failed ends the stream with a classified error', () => {
  const bytes = new TextEncoder().encode(
    'event: response.failed\ndata: {"type":"response.failed","response":{"id":"r","status":"failed","error":{"code":"rate_limit_exceeded","message":"Slow down"},"output":[]}}\n\n',
  )
  assert.deepEqual(replayChunks([bytes], new ResponsesStreamParser()), [
    { type: 'stream-error', kind: 'rate_limited', message: 'OpenAI: Slow down' },
  ])
})
