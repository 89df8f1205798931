import { test } from 'node:test'
import assert from 'node:assert/strict'
import { countInputTokens } from './count-input-tokens.ts'
import { loadTokenizer } from './load-tokenizer.ts'

test("a conversation costs OpenAI's framing: 3 per message plus role and content, 3 to prime the reply", async () => {
  const tokenizer = await loadTokenizer('openai/gpt-4o')
  assert.equal(countInputTokens({ messages: [{ role: 'user', content: 'Hello, world!' }] }, tokenizer), 3 + 1 + 4 + 3)
  const conversation = countInputTokens(
    {
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: [{ type: 'text', text: 'tiktoken is great!' }] },
      ],
    },
    tokenizer,
  )
  assert.equal(conversation, 3 + 1 + 6 + (3 + 1 + 6) + 3)
})

test('tool calls, tool results, tool definitions and images are counted', async () => {
  const tokenizer = await loadTokenizer('openai/gpt-4o')
  const call = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }
  const messages = [
    { role: 'assistant' as const, content: '', tool_calls: [call] },
    { role: 'tool' as const, tool_call_id: 'call_1', content: 'Sunny' },
  ]
  const expectedMessages =
    3 + tokenizer.count('assistant') + (3 + 2 + 5) + (3 + tokenizer.count('tool') + tokenizer.count('call_1') + 1)
  assert.equal(countInputTokens({ messages }, tokenizer), expectedMessages + 3)
  const tool = { type: 'function' as const, name: 'get_weather', parameters: { type: 'object' } }
  assert.equal(
    countInputTokens({ messages, tools: [tool] }, tokenizer),
    expectedMessages + 3 + tokenizer.count('{"name":"get_weather","parameters":{"type":"object"}}'),
  )
  const image = (detail: 'low' | 'high') => ({
    messages: [
      { role: 'user' as const, content: [{ type: 'image' as const, source: 'url' as const, url: 'u', detail }] },
    ],
  })
  assert.equal(countInputTokens(image('low'), tokenizer), 3 + 1 + 85 + 3)
  assert.equal(countInputTokens(image('high'), tokenizer), 3 + 1 + 765 + 3)
})
