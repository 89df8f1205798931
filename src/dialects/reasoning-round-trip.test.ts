// Reasoning produced by one API and shown to a client in another format must come back, when the
// client returns the turn, as the same canonical item (origin and proof intact).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { ReasoningItem } from '../domain/inference/message.ts'
import type { CanonicalResult } from '../domain/inference/result.ts'
import { emptyUsage } from '../domain/inference/usage.ts'
import type { EncodeContext } from './dialect.ts'
import { createDialectRegistry } from './registry.ts'

const dialects = createDialectRegistry()
const context: EncodeContext = {
  generationId: 'gen-r',
  model: 'm',
  provider: 'p',
  createdAt: 1,
  costUsd: null,
  isByok: false,
}
const items: ReasoningItem[] = [
  { type: 'reasoning', text: 'Anthropic thought', signature: 'sig-a', origin: 'anthropic' },
  { type: 'reasoning', text: '', encrypted_content: 'redacted-data', redacted: true, origin: 'anthropic' },
  { type: 'reasoning', text: 'OpenAI summary', id: 'rs_1', encrypted_content: 'enc-o', origin: 'openai-responses' },
  { type: 'reasoning', text: 'Gemini thought', signature: 'thought-sig', origin: 'gemini' },
]
const resultWith = (item: ReasoningItem): CanonicalResult => ({
  id: 'u',
  model: 'm',
  output: [item, { type: 'text', text: 'ok' }],
  finish_reason: 'stop',
  usage: emptyUsage,
})

/** The assistant turn a client would send back, built from the body it received. */
const echoBack: Record<
  'openai-responses' | 'openai-chat' | 'anthropic-messages',
  (body: Record<string, unknown>) => Record<string, unknown>
> = {
  'openai-responses': (body) => ({
    input: [{ role: 'user', content: 'q' }, ...(body.output as unknown[]), { role: 'user', content: 'next' }],
  }),
  'openai-chat': (body) => ({
    messages: [
      { role: 'user', content: 'q' },
      (body.choices as { message: unknown }[])[0]?.message,
      { role: 'user', content: 'next' },
    ],
  }),
  'anthropic-messages': (body) => ({
    max_tokens: 10,
    messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: body.content },
      { role: 'user', content: 'next' },
    ],
  }),
}

for (const name of ['openai-responses', 'openai-chat', 'anthropic-messages'] as const) {
  test(`${name}: reasoning of every origin survives a round trip through the client`, () => {
    for (const item of items) {
      const body = dialects[name].encodeResult(resultWith(item), context)
      const decoded = dialects[name].decode({ model: 'm', ...echoBack[name](body) })
      const assistant = decoded.call.messages[1]
      assert.equal(assistant?.role, 'assistant')
      const restored = assistant?.role === 'assistant' ? assistant.reasoning : undefined
      assert.deepEqual(restored, [item], `${name} / ${item.origin}`)
    }
  })
}

test('the registry holds each dialect under its own name', () => {
  for (const [name, dialect] of Object.entries(dialects)) assert.equal(dialect.name, name)
})
