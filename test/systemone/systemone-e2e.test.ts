// POST /systemone (and /api/alpha/decisions) end to end: real chat calls through the pipeline against
// fake upstreams scripted with top_logprobs, the no-logprobs fallback, errors, the official SDK.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { OpenRouter } from '@openrouter/sdk'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import type { CompletionReply } from '../fake-upstreams/scripted-reply.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { chatBodyOf } from '../fake-upstreams/chat-request-body.ts'

let chat: FakeUpstream
let gemini: FakeUpstream
let gateway: TestGateway
let base: string
let key: string

before(async () => {
  chat = await startFakeUpstream({ api: 'openai-chat' })
  gemini = await startFakeUpstream({ api: 'gemini' })
  const pricing = 'pricing: { prompt: "0.000001", completion: "0.000002" }'
  gateway = await startTestGateway({
    yaml: `providers:
  - { slug: judge, api: openai-chat, base_url: "${chat.url}" }
  - { slug: gem, api: gemini, base_url: "${gemini.url}" }
models:
  - slug: typesafe/jev-1
    endpoints: [{ provider: judge, upstream_model_id: judge-up, max_output_tokens: 100, ${pricing} }]
  - slug: test/gemini-judge
    endpoints: [{ provider: gem, upstream_model_id: gem-up, max_output_tokens: 100, ${pricing} }]
`,
  })
  base = await gateway.listen()
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'systemone' },
  })
  key = (created.json() as { key: string }).key
})
after(async () => {
  await gateway.close()
  await Promise.all([chat.close(), gemini.close()])
})

// One distribution over every key the three question types use; each question normalises over its own.
const topLogprobs = { true: 0.3, false: 0.1, A: 0.2, B: 0.1, C: 0.05, '0': 0.05, '1': 0.05, '2': 0.15 }
const logprobReply: CompletionReply = {
  type: 'completion',
  text: 'A',
  usage: { input_tokens: 100, output_tokens: 1 },
  logprobs: [
    {
      token: 'A',
      logprob: Math.log(0.2),
      top_logprobs: Object.entries(topLogprobs).map(([token, p]) => ({ token, logprob: Math.log(p) })),
    },
  ],
}
const questions = {
  refund: {
    type: 'noul',
    instructions: 'Does the customer want a refund?',
    criteria: { true: 'asks for money back', false: 'does not' },
  },
  topic: {
    type: 'choice',
    instructions: 'What is the ticket about?',
    criteria: { shipping: 'delivery', billing: 'invoices', other: null },
  },
  urgency: { type: 'score', instructions: 'How urgent is it?', criteria: ['not urgent', 'soon', 'immediately'] },
}
const post = (path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} != ${expected}`)
const sum = (values: Record<string, number>) => Object.values(values).reduce((total, value) => total + value, 0)

interface Decisions {
  id: string
  model: string
  provider: string
  answers: Record<
    string,
    {
      type: string
      noul?: number
      choice?: string
      score?: number
      confidence?: number
      probabilities?: Record<string, number>
      legend?: Record<string, string>
    }
  >
  usage: { cost: number; input_tokens: number; output_tokens: number }
  metadata: { probability_method: Record<string, string>; generation_ids: Record<string, string> }
}

test('probabilities from scripted top_logprobs: exact for noul, choice and score; one decisions record per question', async () => {
  chat.script(logprobReply, logprobReply, logprobReply)
  const response = await post('/api/v1/systemone', {
    model: 'jev-1',
    state: { ticket: 'Where is my parcel? I want my money back' },
    questions,
  })
  assert.equal(response.status, 200, await response.clone().text())
  const body = (await response.json()) as Decisions
  assert.equal(body.model, 'typesafe/jev-1')
  assert.equal(body.provider, 'judge')
  close(body.answers.refund!.noul!, 0.75)
  const topic = body.answers.topic!
  assert.equal(topic.choice, 'shipping')
  close(topic.probabilities!.shipping!, 0.2 / 0.35)
  close(topic.probabilities!.billing!, 0.1 / 0.35)
  close(topic.probabilities!.other!, 0.05 / 0.35)
  close(topic.confidence!, 0.2 / 0.35)
  const urgency = body.answers.urgency!
  assert.equal(urgency.score, 2)
  close(urgency.confidence!, 0.6)
  close(urgency.probabilities!['0']!, 0.2)
  close(urgency.probabilities!['1']!, 0.2)
  assert.deepEqual(urgency.legend, { 0: 'not urgent', 1: 'soon', 2: 'immediately' })
  for (const answer of [topic, urgency]) assert.ok(Math.abs(sum(answer.probabilities!) - 1) < 1e-6)
  assert.deepEqual(body.metadata.probability_method, { refund: 'logprobs', topic: 'logprobs', urgency: 'logprobs' })
  assert.deepEqual(body.usage, { cost: 0.000306, input_tokens: 300, output_tokens: 3 })
  const sent = chat.requests.slice(-3).map(chatBodyOf)
  assert.ok(
    sent.every((request) => request.model === 'judge-up' && request.logprobs === true && request.top_logprobs === 20),
  )
  await gateway.drained()
  for (const id of Object.values(body.metadata.generation_ids)) {
    const generation = (
      await gateway.inject({ method: 'GET', url: `/api/v1/generation?id=${id}`, headers: bearer(key) })
    ).json() as { data: { api_type: string; model: string } }
    assert.equal(generation.data.api_type, 'decisions', id)
  }
  assert.equal(body.metadata.generation_ids.refund, body.id)
})

test('without logprobs (Gemini, or a chat server that omits them) the constrained answer decides', async () => {
  gemini.script({ type: 'completion', text: 'B' })
  const viaGemini = (await (
    await post('/api/v1/systemone', {
      model: 'test/gemini-judge',
      state: 'invoice 42 charged twice',
      questions: { topic: questions.topic },
    })
  ).json()) as Decisions
  assert.equal(viaGemini.answers.topic!.choice, 'billing')
  assert.deepEqual(viaGemini.answers.topic!.probabilities, { shipping: 0, billing: 1, other: 0 })
  assert.equal(viaGemini.metadata.probability_method.topic, 'answer')
  chat.script({ type: 'completion', text: 'false' })
  const viaChat = (await (
    await post('/api/alpha/decisions', { model: 'jev-1', state: ['a', 'b'], questions: { refund: questions.refund } })
  ).json()) as Decisions
  assert.equal(viaChat.answers.refund!.noul, 0)
  assert.equal(viaChat.metadata.probability_method.refund, 'answer')
})

test('@openrouter/sdk systemOne.create and alpha.decisions.create accept the responses', async () => {
  const client = new OpenRouter({ apiKey: key, serverURL: `${base}/api/v1` })
  chat.script(logprobReply)
  const created = await client.systemOne.create({
    decisionsRequest: { model: 'jev-1', state: { a: 1 }, questions: { urgency: questions.urgency as never } },
  })
  const urgency = created.answers.urgency as { type: 'score'; score: number; confidence?: number }
  assert.equal(urgency.score, 2)
  close(urgency.confidence!, 0.6)
  assert.equal(created.usage.inputTokens, 100)
  chat.script(logprobReply)
  const alpha = await client.alpha.decisions.create(
    { decisionsRequest: { model: 'typesafe/jev-1', state: 'x', questions: { refund: questions.refund as never } } },
    { serverURL: base },
  )
  close((alpha.answers.refund as { noul: number }).noul, 0.75)
})

test('errors: 404 unknown model, 400 naming a malformed question, upstream 429 passed on', async () => {
  const unknown = await post('/api/v1/systemone', { model: 'jev-99', state: 'x', questions })
  assert.equal(unknown.status, 404)
  assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /typesafe\/jev-99/)
  const bad = await post('/api/v1/systemone', {
    model: 'jev-1',
    state: 'x',
    questions: { ...questions, broken: { type: 'score', instructions: 'x', criteria: { a: 'b' } } },
  })
  assert.equal(bad.status, 400)
  assert.match(
    ((await bad.json()) as { error: { message: string } }).error.message,
    /questions\.broken\.criteria of a score question must be an array/,
  )
  chat.script({ type: 'error', status: 429, retryAfterSeconds: 3 })
  const limited = await post('/api/v1/systemone', {
    model: 'jev-1',
    state: 'x',
    questions: { refund: questions.refund },
  })
  assert.equal(limited.status, 429)
  assert.equal(limited.headers.get('retry-after'), '3')
  const management = await fetch(`${base}/api/v1/systemone`, {
    method: 'POST',
    headers: { ...bearer(gateway.adminKey), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'jev-1', state: 'x', questions }),
  })
  assert.equal(management.status, 403)
})
