import { test } from 'node:test'
import assert from 'node:assert/strict'
import { buildDestinationRecord, reconciledAllocation, shouldReceive } from './build-destination-record.ts'
import type { Destination } from './destination.ts'
import type { GenerationTrace } from './generation-trace.ts'
import { sampleTrace } from '../../test/observability/support/sample-trace.ts'

const workspaceId = 'ws-1'

function destination(overrides: Partial<Destination> = {}): Destination {
  return {
    id: 'dest-1',
    workspaceId,
    name: 'd',
    type: 'webhook',
    config: { url: 'https://example.com' },
    enabled: true,
    apiKeyHashes: null,
    broadcastGenerationCost: false,
    broadcastGenerationCostAllocation: false,
    broadcastGenerationIdentity: false,
    broadcastGenerationRequestContext: false,
    filterRules: null,
    privacyMode: false,
    regions: ['global'],
    samplingRate: 1,
    lastError: null,
    createdAt: '',
    updatedAt: '',
    ...overrides,
  }
}

test('sampling at 0.25 over 2,000 traces stays within 5 standard deviations, and replays decide the same', () => {
  const target = destination({ samplingRate: 0.25 })
  const traces: GenerationTrace[] = Array.from({ length: 2000 }, (_, index) =>
    sampleTrace(workspaceId, { generationId: `gen-${index}` }),
  )
  const chosen = traces.filter((trace) => shouldReceive(trace, target))
  // Binomial(2000, 0.25): mean 500, standard deviation ~19.4; 5 sd = 97 (false failure odds < 1e-6).
  assert.ok(Math.abs(chosen.length - 500) <= 97, `sampled ${chosen.length}`)
  assert.deepEqual(
    traces.filter((trace) => shouldReceive(trace, target)).map((trace) => trace.generationId),
    chosen.map((trace) => trace.generationId),
  )
})

test('api_key_hashes, regions and disabled destinations select', () => {
  const trace = sampleTrace(workspaceId)
  assert.equal(shouldReceive(trace, destination({ apiKeyHashes: ['other'] })), false)
  assert.equal(shouldReceive(trace, destination({ apiKeyHashes: [trace.apiKeyHash] })), true)
  assert.equal(shouldReceive(trace, destination({ regions: ['europe'] })), false)
  assert.equal(shouldReceive({ ...trace, region: 'europe' }, destination({ regions: ['europe'] })), true)
  assert.equal(shouldReceive(trace, destination({ enabled: false })), false)
  assert.equal(shouldReceive(trace, destination({ workspaceId: 'other' })), false)
})

test('filter rules: every operator over string and numeric fields; groups must all match', () => {
  const trace = sampleTrace(workspaceId)
  const passes = (field: string, operator: string, value?: string | number) =>
    shouldReceive(
      trace,
      destination({
        filterRules: {
          enabled: true,
          groups: [{ logic: 'and', rules: [{ field, operator, ...(value === undefined ? {} : { value }) } as never] }],
        },
      }),
    )
  assert.equal(passes('model', 'equals', 'acme/fast-1'), true)
  assert.equal(passes('model', 'not_equals', 'acme/fast-1'), false)
  assert.equal(passes('provider', 'contains', 'cm'), true)
  assert.equal(passes('input', 'not_contains', 'PELICAN'), false)
  assert.equal(passes('output', 'regex', '^I cannot'), true)
  assert.equal(passes('api_key_name', 'starts_with', 'ci'), true)
  assert.equal(passes('finish_reason', 'ends_with', 'op'), true)
  assert.equal(passes('total_tokens', 'gt', 18), true)
  assert.equal(passes('prompt_tokens', 'lt', 12), false)
  assert.equal(passes('completion_tokens', 'gte', 7), true)
  assert.equal(passes('total_cost', 'lte', 0.00001), false)
  assert.equal(passes('session_id', 'exists'), true)
  assert.equal(passes('user_id', 'not_exists'), false)
  assert.equal(
    shouldReceive(
      { ...trace, user: null },
      destination({
        filterRules: {
          enabled: true,
          groups: [{ logic: 'and', rules: [{ field: 'user_id', operator: 'not_exists' }] }],
        },
      }),
    ),
    true,
  )
  const groups = (logic: 'and' | 'or') => ({
    enabled: true,
    groups: [
      {
        logic,
        rules: [
          { field: 'model' as const, operator: 'equals' as const, value: 'x' },
          { field: 'provider' as const, operator: 'equals' as const, value: 'acme' },
        ],
      },
    ],
  })
  assert.equal(shouldReceive(trace, destination({ filterRules: groups('or') })), true)
  assert.equal(shouldReceive(trace, destination({ filterRules: groups('and') })), false)
  assert.equal(shouldReceive(trace, destination({ filterRules: { ...groups('and'), enabled: false } })), true)
})

test('record parts follow the flags; allocation only when it reconciles exactly', () => {
  const trace = sampleTrace(workspaceId)
  const bare = buildDestinationRecord(trace, destination({ privacyMode: true }))
  assert.equal(bare.cost, undefined)
  assert.equal(bare.cost_allocation, undefined)
  assert.equal(bare.user, undefined)
  assert.equal(bare.request_context, undefined)
  assert.equal(bare.input, undefined)
  assert.equal(bare.output, undefined)
  const full = buildDestinationRecord(
    trace,
    destination({
      broadcastGenerationCost: true,
      broadcastGenerationCostAllocation: true,
      broadcastGenerationIdentity: true,
      broadcastGenerationRequestContext: true,
    }),
  )
  assert.equal(full.cost, 0.000025)
  assert.deepEqual(full.cost_allocation, trace.costAllocation)
  assert.equal(full.user, 'end-user-7')
  assert.equal(full.api_key_name, 'ci key')
  assert.equal(full.output?.completion, trace.output.text)
  assert.equal(reconciledAllocation({ prompt: 0.00001, completion: 0.00001, cached: 0, reasoning: 0 }, 0.000025), null)
  const off = buildDestinationRecord(
    { ...trace, costAllocation: { prompt: 1, completion: 0, cached: 0, reasoning: 0 } },
    destination({ broadcastGenerationCostAllocation: true }),
  )
  assert.equal(off.cost_allocation, undefined)
})

test('trace and span ids come from the SHA-256 of the generation id, so a redelivered record keeps them', () => {
  const record = buildDestinationRecord(
    sampleTrace(workspaceId, { generationId: 'gen-stable-1', requestContext: { headers: {}, trace: null } }),
    destination(),
  )
  // Pinned values: sha256('trace:gen-stable-1'), hex digits 0-31 and 32-47.
  assert.equal(record.trace_id, '8f70a741e021684882ef08ea06248a22')
  assert.equal(record.span_id, 'e328231dfe37bd15')
})
