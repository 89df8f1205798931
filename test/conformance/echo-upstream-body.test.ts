// `debug: {echo_upstream_body: true}` on a stream: the body sent upstream (credentials never included) is
// the stream's first event, in each format's way, and the official clients read it or pass over it.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { OpenRouter } from '@openrouter/sdk'
import { startClientWorld, type ClientWorld } from './client-world.ts'

let world: ClientWorld

before(async () => {
  world = await startClientWorld()
})
after(() => world.close())

const debug = { echo_upstream_body: true }

/** What the fake upstream received last, as JSON. */
function lastUpstreamBody(): unknown {
  return world.upstream.requests.at(-1)!.body
}

async function rawStream(path: string, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${world.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${world.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  assert.equal(response.status, 200)
  return response.text()
}

test('openai chat stream: the first chunk has empty choices and debug.echo_upstream_body, then the role chunk', async () => {
  world.upstream.script({ type: 'completion', text: 'Hello there' })
  const client = new OpenAI({ apiKey: world.key, baseURL: world.baseUrl, maxRetries: 0 })
  const params = {
    model: 'test/chat',
    stream: true as const,
    messages: [{ role: 'user' as const, content: 'Hi' }],
    debug,
  }
  const stream = await client.chat.completions.create(params)
  const chunks: Record<string, unknown>[] = []
  for await (const chunk of stream) chunks.push({ ...chunk })
  const first = chunks[0] as { choices: unknown[]; debug?: { echo_upstream_body?: unknown }; object: string }
  assert.equal(first.object, 'chat.completion.chunk')
  assert.deepEqual(first.choices, [])
  const echoed = first.debug?.echo_upstream_body as { model: string; stream: boolean; messages: unknown[] }
  assert.deepEqual(echoed, lastUpstreamBody())
  assert.equal(echoed.model, 'up-chat', 'the body as sent: the upstream model id, not the slug')
  assert.equal((chunks[1] as { choices: { delta: { role?: string } }[] }).choices[0]?.delta.role, 'assistant')
  const text = chunks.map(
    (chunk) => (chunk as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content,
  )
  assert.equal(text.join(''), 'Hello there')
})

test('the echo never carries the upstream credentials, and without the flag there is no debug frame', async () => {
  world.upstream.script({ type: 'completion', text: 'ok' })
  const echoed = await rawStream('/chat/completions', {
    model: 'test/chat',
    stream: true,
    messages: [{ role: 'user', content: 'Hi' }],
    debug,
  })
  assert.match(echoed, /^data: \{[^\n]*"debug":\{"echo_upstream_body":\{/)
  assert.equal(echoed.includes('upstream-secret'), false)
  world.upstream.script({ type: 'completion', text: 'ok' })
  const plain = await rawStream('/chat/completions', {
    model: 'test/chat',
    stream: true,
    messages: [{ role: 'user', content: 'Hi' }],
  })
  assert.equal(plain.includes('"debug"'), false)
})

test('@openrouter/sdk responses stream: response.debug is event 0 with the body, response.created follows', async () => {
  world.upstream.script({ type: 'completion', text: 'Hello' })
  const client = new OpenRouter({ apiKey: world.key, serverURL: world.baseUrl, retryConfig: { strategy: 'none' } })
  const stream = await client.responses.send({
    responsesRequest: { model: 'test/chat', input: 'Hi', stream: true, debug: { echoUpstreamBody: true } },
  })
  const events: { type: string; sequenceNumber?: number; debug?: { echoUpstreamBody?: unknown } }[] = []
  for await (const event of stream as AsyncIterable<(typeof events)[number]>) events.push(event)
  assert.equal(events[0]?.type, 'response.debug')
  assert.equal(events[0]?.sequenceNumber, 0)
  assert.deepEqual(events[0]?.debug?.echoUpstreamBody, lastUpstreamBody())
  assert.equal(events[1]?.type, 'response.created')
  assert.equal(events[1]?.sequenceNumber, 1)
  assert.equal(events.at(-1)?.type, 'response.completed')
})

test('@openrouter/sdk chat.send stream with debug: every chunk parses, the text arrives whole', async () => {
  world.upstream.script({ type: 'completion', text: 'Hello there' })
  const client = new OpenRouter({ apiKey: world.key, serverURL: world.baseUrl, retryConfig: { strategy: 'none' } })
  const stream = await client.chat.send({
    chatRequest: {
      model: 'test/chat',
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
      debug: { echoUpstreamBody: true },
    },
  })
  let text = ''
  let first: { choices: unknown[] } | undefined
  assert.ok(Symbol.asyncIterator in stream, 'a stream')
  for await (const chunk of stream) {
    first ??= chunk
    text += chunk.choices[0]?.delta.content ?? ''
  }
  assert.deepEqual(first?.choices, [], 'the debug chunk comes first')
  assert.equal(text, 'Hello there')
})

test('anthropic messages stream: the echo rides on a first ping, which the SDK stream helper passes over', async () => {
  const body = { model: 'test/chat', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'Hi' }], debug }
  world.upstream.script({ type: 'completion', text: 'Bonjour' })
  const raw = await fetch(`${world.baseUrl.replace(/\/v1$/, '')}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': world.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  })
  const text = await raw.text()
  const first = /^event: (\w+)\ndata: (.*)\n/.exec(text)
  assert.equal(first?.[1], 'ping', text.slice(0, 200))
  const ping = JSON.parse(first![2]!) as { type: string; debug: { echo_upstream_body: unknown } }
  assert.equal(ping.type, 'ping')
  assert.deepEqual(ping.debug.echo_upstream_body, lastUpstreamBody())

  world.upstream.script({ type: 'completion', text: 'Bonjour' })
  const client = new Anthropic({ apiKey: world.key, baseURL: world.baseUrl.replace(/\/v1$/, ''), maxRetries: 0 })
  const params = { model: 'test/chat', max_tokens: 50, messages: [{ role: 'user' as const, content: 'Hi' }], debug }
  const message = await client.messages.stream(params).finalMessage()
  assert.deepEqual(message.content, [{ type: 'text', text: 'Bonjour' }])
})
