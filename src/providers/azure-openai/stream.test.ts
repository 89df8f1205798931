// Azure's Chat Completions stream as the service sends it (an opening prompt-filter chunk with an empty
// id, content-filter results on every choice, a usage chunk with cached tokens), replayed at every
// chunk split through the azure-openai adapter: the message takes Azure's id and model, not the empty ones.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { assertEverySplit, loadTranscripts } from '../../../test/support/transcripts.ts'
import { adapterFor } from '../registry.ts'

const transcripts = loadTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))
const settings = {
  slug: 'azure',
  apiKey: 'azure-key',
  baseUrl: 'https://example.openai.azure.com',
  options: { api_version: '2024-10-21' },
}

test('has the chat transcript', () => {
  assert.deepEqual(
    transcripts.map((t) => t.scenario),
    ['chat-content-filter'],
  )
})

for (const transcript of transcripts) {
  test(`transcript ${transcript.scenario} gives the same events at every split`, () => {
    assert.deepEqual(transcript.expected[0], {
      type: 'message-start',
      id: 'chatcmpl-AcR4mT0dLr7yWq2KfXvB1nP9sZ3eH',
      model: 'gpt-4o-2024-11-20',
    })
    assertEverySplit(transcript, () => adapterFor('azure-openai', 'gpt-4o-prod', settings).createStreamParser())
  })
}
