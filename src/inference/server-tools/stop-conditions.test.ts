import { test } from 'node:test'
import assert from 'node:assert/strict'
import { shouldStopTools, type LoopProgress } from './stop-conditions.ts'

const progress = (patch: Partial<LoopProgress>): LoopProgress => ({
  steps: 1,
  costNano: 0n,
  totalTokens: 0,
  finishReason: 'tool_calls',
  nativeFinishReason: null,
  calledTools: [],
  ...patch,
})

test('max_tool_calls stops after that many steps; default and hard cap 30', () => {
  assert.equal(shouldStopTools({ max_tool_calls: 2 }, progress({ steps: 1 })), false)
  assert.equal(shouldStopTools({ max_tool_calls: 2 }, progress({ steps: 2 })), true)
  assert.equal(shouldStopTools({ max_tool_calls: 30 }, progress({ steps: 29 })), false)
  assert.equal(shouldStopTools({ max_tool_calls: 30 }, progress({ steps: 30 })), true)
})

test('stop_server_tools_when conditions are OR-combined and override max_tool_calls', () => {
  const options = {
    max_tool_calls: 1,
    stop_server_tools_when: [
      { type: 'step_count_is', step_count: 3 },
      { type: 'max_cost', max_cost_in_dollars: 0.001 },
    ],
  } as const
  assert.equal(shouldStopTools(options, progress({ steps: 1 })), false, 'max_tool_calls is ignored')
  assert.equal(shouldStopTools(options, progress({ steps: 3 })), true)
  assert.equal(shouldStopTools(options, progress({ steps: 2, costNano: 1_000_000n })), true)
  assert.equal(shouldStopTools(options, progress({ steps: 2, costNano: 999_999n })), false)
  assert.equal(shouldStopTools(options, progress({ steps: 30 })), true, 'the hard cap holds anyway')
})

test('finish_reason_is, has_tool_call and max_tokens_used', () => {
  const when = (condition: object) => ({ max_tool_calls: 30, stop_server_tools_when: [condition] }) as never
  assert.equal(shouldStopTools(when({ type: 'finish_reason_is', reason: 'tool_calls' }), progress({})), true)
  assert.equal(shouldStopTools(when({ type: 'finish_reason_is', reason: 'stop' }), progress({})), false)
  assert.equal(
    shouldStopTools(
      when({ type: 'has_tool_call', tool_name: 'openrouter:web_fetch' }),
      progress({ calledTools: ['web_fetch'] }),
    ),
    true,
  )
  assert.equal(
    shouldStopTools(when({ type: 'has_tool_call', tool_name: 'web_fetch' }), progress({ calledTools: ['datetime'] })),
    false,
  )
  assert.equal(
    shouldStopTools(when({ type: 'max_tokens_used', max_tokens: 100 }), progress({ totalTokens: 100 })),
    true,
  )
  assert.equal(
    shouldStopTools(when({ type: 'max_tokens_used', max_tokens: 100 }), progress({ totalTokens: 99 })),
    false,
  )
})
