import { test } from 'node:test'
import assert from 'node:assert/strict'
import { toolHistoryAsText } from './tool-history-as-text.ts'

test('tool calls and results become alternating plain text turns; other messages are kept', () => {
  const rewritten = toolHistoryAsText([
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Time and page?' },
    {
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [
        { id: 'a', name: 'openrouter_datetime', arguments: '' },
        { id: 'b', name: 'openrouter_web_fetch', arguments: '{"url":"https://x.test"}' },
      ],
    },
    { role: 'tool', tool_call_id: 'a', name: 'openrouter_datetime', content: '12:00' },
    { role: 'tool', tool_call_id: 'b', name: 'openrouter_web_fetch', content: [{ type: 'text', text: 'Page' }] },
  ])
  assert.deepEqual(rewritten, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Time and page?' },
    {
      role: 'assistant',
      content:
        'Checking.\n[called openrouter_datetime with {}]\n[called openrouter_web_fetch with {"url":"https://x.test"}]',
    },
    { role: 'user', content: '[result of openrouter_datetime]\n12:00\n\n[result of openrouter_web_fetch]\nPage' },
  ])
})
