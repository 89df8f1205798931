// ConverseStream bodies as Bedrock sends them (binary AWS event-stream messages whose JSON payloads carry
// the `p` padding field), replayed at every chunk split through the bedrock adapter: text with cache
// reads, Claude reasoning with its signature then a tool call, and a throttling exception mid-stream.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { assertEverySplit, loadTranscripts } from '../../../test/support/transcripts.ts'
import { adapterFor } from '../registry.ts'

const transcripts = loadTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))
const settings = { slug: 'bedrock', apiKey: null, baseUrl: 'https://bedrock-runtime.eu-west-3.amazonaws.com' }

test('has the required transcript scenarios, all AWS event-stream bodies', () => {
  assert.deepEqual(transcripts.map((t) => t.scenario).sort(), [
    'exception-mid-stream',
    'reasoning-tool-call',
    'text-cache-usage',
  ])
  assert.ok(transcripts.every((t) => t.framing === 'aws-event-stream'))
})

for (const transcript of transcripts) {
  test(`transcript ${transcript.scenario} gives the same events at every split`, () => {
    const adapter = adapterFor('bedrock', 'anthropic.claude-sonnet-4-20250514-v1:0', settings)
    assert.equal(adapter.framing, 'aws-event-stream')
    assertEverySplit(transcript, () => adapter.createStreamParser())
  })
}
