import { test } from 'node:test'
import assert from 'node:assert/strict'
import { assistantMessages } from './assistant-messages.ts'

test('chat: one message per choice, with its refusal and tool calls', () => {
  const body = {
    choices: [
      { message: { role: 'assistant', content: 'Sure.' } },
      {
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'refund', arguments: '{"amount":5}' } }],
        },
      },
      { message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' } },
    ],
  }
  assert.deepEqual(assistantMessages('openai-chat', body), [
    'Sure.',
    'tool call refund: {"amount":5}',
    'I cannot help with that.',
  ])
})

test('Responses and Messages answers are one message of their text and tool calls', () => {
  const responses = {
    output: [
      { type: 'reasoning', summary: [] },
      { type: 'message', content: [{ type: 'output_text', text: 'Checking.' }] },
      { type: 'function_call', name: 'lookup', arguments: '{"id":1}' },
    ],
  }
  assert.deepEqual(assistantMessages('openai-responses', responses), ['Checking.\ntool call lookup: {"id":1}'])
  const messages = {
    content: [
      { type: 'thinking', thinking: 'hidden' },
      { type: 'text', text: 'Done.' },
      { type: 'tool_use', id: 't', name: 'refund', input: { amount: 5 } },
    ],
  }
  assert.deepEqual(assistantMessages('anthropic-messages', messages), ['Done.\ntool call refund: {"amount":5}'])
})

test('a body that is not an object has no message', () => {
  assert.deepEqual(assistantMessages('openai-chat', null), [])
})
