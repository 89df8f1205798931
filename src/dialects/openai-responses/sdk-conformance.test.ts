// The official openai SDK must accept what this dialect sends and rebuild the same text, tool calls
// and usage, for plain JSON bodies and for streams.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import OpenAI from 'openai'
import {
  encodeTranscript,
  loadDialectTranscripts,
  transcriptContext,
} from '../../../test/support/dialect-transcripts.ts'
import { serveRecorded } from '../../../test/support/serve-recorded.ts'
import { foldStreamEvents } from '../../domain/inference/fold-stream-events.ts'
import { GatewayError } from '../../domain/errors.ts'
import { createOpenAiResponsesDialect } from './openai-responses-dialect.ts'

const dialect = createOpenAiResponsesDialect()
const transcripts = loadDialectTranscripts(fileURLToPath(new URL('./__transcripts__', import.meta.url)))
const scenario = (name: string) => {
  const found = transcripts.find((transcript) => transcript.scenario === name)
  assert.ok(found, name)
  return found
}

async function withClient<T>(
  body: Record<string, unknown> | string,
  run: (client: OpenAI) => Promise<T>,
  status = 200,
): Promise<T> {
  const server = await serveRecorded([{ body, status }])
  try {
    return await run(new OpenAI({ apiKey: 'x', baseURL: server.baseUrl, maxRetries: 0 }))
  } finally {
    await server.close()
  }
}

test('responses.create parses a tool-call result with text, calls and usage', async () => {
  const decoded = dialect.decode({
    model: 'acme/fast-1',
    input: 'Weather?',
    tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' } }],
  })
  const body = dialect.encodeResult(foldStreamEvents(scenario('tool-call').events), {
    ...transcriptContext,
    echo: decoded.echo,
  })
  const response = await withClient(body, (client) =>
    client.responses.create({ model: 'acme/fast-1', input: 'Weather?' }),
  )
  assert.equal(response.output_text, 'Let me check.')
  const calls = response.output.filter((item) => item.type === 'function_call')
  assert.deepEqual(
    calls.map((call) => [call.call_id, call.name, JSON.parse(call.arguments)]),
    [
      ['call_abc', 'get_weather', { city: 'Paris' }],
      ['call_def', 'get_time', { tz: 'CET' }],
    ],
  )
  assert.equal(response.usage?.total_tokens, 62)
  assert.equal(response.tools[0]?.type, 'function')
})

test('responses stream: the SDK accumulates the same final response as the JSON path', async () => {
  for (const name of [
    'plain-text',
    'tool-call',
    'reasoning',
    'incomplete',
    'responses-reasoning',
    'routing-metadata',
  ]) {
    const transcript = scenario(name)
    const sse = encodeTranscript(transcript, dialect.createStreamEncoder(transcript.context))
    const final = await withClient(sse, (client) =>
      client.responses.stream({ model: 'acme/fast-1', input: 'x' }).finalResponse(),
    )
    const expected = foldStreamEvents(transcript.events)
    const text = expected.output.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('')
    assert.equal(final.output_text, text, name)
    assert.equal(final.usage?.output_tokens, expected.usage.output_tokens, name)
    assert.equal(final.output.length, expected.output.length, name)
    if (name === 'routing-metadata') {
      assert.deepEqual((final as unknown as Record<string, unknown>).openrouter_metadata, transcript.context.metadata)
      assert.deepEqual([final.instructions, final.metadata, final.temperature], ['Be brief.', { team: 'blue' }, 0.3])
    }
    if (name === 'incomplete') assert.equal(final.incomplete_details?.reason, 'max_output_tokens')
  }
})

test('responses stream: iterating create({stream: true}) yields every event in sequence with argument deltas', async () => {
  const transcript = scenario('tool-call')
  const sse = encodeTranscript(transcript, dialect.createStreamEncoder(transcript.context))
  const events = await withClient(sse, async (client) => {
    const stream = await client.responses.create({ model: 'acme/fast-1', input: 'x', stream: true })
    const seen = []
    for await (const event of stream) seen.push(event)
    return seen
  })
  assert.equal(events[0]?.type, 'response.created')
  assert.equal(events.at(-1)?.type, 'response.completed')
  const argumentsText = events
    .flatMap((event) =>
      event.type === 'response.function_call_arguments.delta' && event.output_index === 1 ? [event.delta] : [],
    )
    .join('')
  assert.deepEqual(JSON.parse(argumentsText), { city: 'Paris' })
})

test('responses stream: a mid-stream failure reaches the SDK as an error event and a failed response', async () => {
  const transcript = scenario('error-mid-stream')
  const sse = encodeTranscript(transcript, dialect.createStreamEncoder(transcript.context))
  const types = await withClient(sse, async (client) => {
    const stream = await client.responses.create({ model: 'acme/fast-1', input: 'x', stream: true })
    const seen: { type: string; message?: string }[] = []
    for await (const event of stream)
      seen.push(
        event.type === 'error'
          ? { type: event.type, message: event.message }
          : event.type === 'response.failed'
            ? { type: event.type, message: event.response.error?.message ?? '' }
            : { type: event.type },
      )
    return seen
  })
  assert.deepEqual(types.slice(-2), [
    { type: 'error', message: 'Overloaded' },
    { type: 'response.failed', message: 'Overloaded' },
  ])
})

test('responses errors: the SDK raises the envelope status and message', async () => {
  const encoded = dialect.encodeError(new GatewayError('invalid_request', 'store: only false is accepted'))
  await assert.rejects(
    withClient(encoded.body, (client) => client.responses.create({ model: 'acme/fast-1', input: 'x' }), encoded.status),
    (error: unknown) =>
      error instanceof OpenAI.BadRequestError && error.status === 400 && error.message.includes('store: only false'),
  )
})
