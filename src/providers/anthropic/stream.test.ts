import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { foldStreamEvents } from '../../domain/inference/fold-stream-events.ts'
import { assertEverySplit, loadTranscripts, replayChunks } from '../../../test/support/transcripts.ts'
import { AnthropicStreamParser } from './stream.ts'

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
    assertEverySplit(transcript, () => new AnthropicStreamParser())
  })
}

test('the thinking transcript folds into signed and redacted reasoning items', () => {
  const thinking = transcripts.find((t) => t.scenario === 'thinking')
  assert.ok(thinking)
  const result = foldStreamEvents(replayChunks([thinking.upstream], new AnthropicStreamParser()))
  assert.deepEqual(
    result.output.map((item) => item.type),
    ['reasoning', 'reasoning', 'text'],
  )
  assert.equal(result.output[0]?.type === 'reasoning' && result.output[0].signature?.startsWith('EqQB'), true)
  assert.equal(result.output[1]?.type === 'reasoning' && result.output[1].redacted, true)
})

test('a stream that stops before message_stop ends with a stream-error', () => {
  const bytes = new TextEncoder().encode(
    'event: message_start\ndata: {"type":"message_start","message":{"id":"m","model":"c","usage":{"input_tokens":1}}}\n\n',
  )
  const events = replayChunks([bytes], new AnthropicStreamParser())
  assert.deepEqual(
    events.map((event) => event.type),
    ['message-start', 'stream-error'],
  )
})

test('a [DONE] frame added by a proxy is ignored rather than read as a malformed frame', () => {
  const plain = transcripts.find((t) => t.scenario === 'plain-text')
  assert.ok(plain)
  const withDone = new Uint8Array([...plain.upstream, ...new TextEncoder().encode('data: [DONE]\n\n')])
  assert.deepEqual(replayChunks([withDone], new AnthropicStreamParser()), plain.expected)
})
