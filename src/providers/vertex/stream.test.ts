// Streams as Vertex AI sends them, replayed at every chunk split through the Vertex adapter's parser:
// Gemini's streamGenerateContent?alt=sse (createTime, trafficType, thoughts and a signed function call)
// and Claude's streamRawPredict (a `msg_vrtx_` id, signed thinking, cache reads).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { assertEverySplit, loadTranscripts } from '../../../test/support/transcripts.ts'
import { adapterFor } from '../registry.ts'

const transcripts = loadTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))
const models: Readonly<Record<string, string>> = {
  'gemini-tool-call': 'gemini-2.5-pro',
  'claude-thinking': 'claude-sonnet-4@20250514',
}
const settings = { slug: 'vertex', apiKey: null, baseUrl: 'https://us-east5-aiplatform.googleapis.com' }

test('has a transcript for each publisher', () => {
  assert.deepEqual(transcripts.map((t) => t.scenario).sort(), ['claude-thinking', 'gemini-tool-call'])
})

for (const transcript of transcripts) {
  test(`transcript ${transcript.scenario} gives the same events at every split`, () => {
    const adapter = adapterFor('vertex', models[transcript.scenario] ?? '', settings)
    assert.equal(adapter.framing, 'sse')
    assertEverySplit(transcript, () => adapter.createStreamParser())
  })
}
