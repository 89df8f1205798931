// `npm run bench:store [-- --rate 3000 --seconds 10 --ids ordered|random --durability durable|write-behind]`:
// what the store writes of the hot path cost, alone. The real GenerationStore and LedgerWriter over the
// group commit on a fresh SQLite store (with its checkpointer and write-worker threads) take one
// generation record, its content and one ledger row per "request", at a fixed rate. With `durable` (the
// gateway's default) every request awaits its commit, as an answer does, and the wait is reported; with
// `write-behind` rows are committed by the flush interval. Prints the process's CPU per
// request (every thread), the part of it on the event loop's thread (Linux only), and the event-loop
// delay the flushes cause. `--ids random` makes generation ids that do not sort by creation, to show what
// ordered ids save: rows that arrive in order touch fewer B-tree pages. Pinned to core 0 when taskset
// exists, like the servers of `npm run bench`. `--through <migration>` builds the store only up to that
// migration, to measure what a later one costs every write; the generation store writes the daily
// activity tables, so not before `0017-daily-workspace-totals` (which measures the triggers that
// migration 0018 removed, run on top of the group commit's own sums).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHistogram, monitorEventLoopDelay } from 'node:perf_hooks'
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { openStore } from '../src/store/open-store.ts'
import { migrateStoreTo, migrateToLatest } from '../src/store/migrate.ts'
import { GenerationStore } from '../src/generations/generation-store.ts'
import type { GenerationContent, GenerationRecord } from '../src/generations/generation-record.ts'
import { LedgerWriter } from '../src/accounting/ledger-writer.ts'
import { createLedgerRepository, type LedgerRow } from '../src/store/repositories/ledger-repository.ts'
import { GenerationIds } from '../src/inference/generation-ids.ts'
import { GroupCommit } from '../src/store/group-commit.ts'
import { pinToCore, threadSchedstat } from './child-process.ts'

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '3000' },
    seconds: { type: 'string', default: '10' },
    ids: { type: 'string', default: 'ordered' },
    durability: { type: 'string', default: 'durable' },
    through: { type: 'string' },
  },
})
const rate = Number(values.rate)
const seconds = Number(values.seconds)
if (values.ids !== 'ordered' && values.ids !== 'random') throw new Error('--ids takes ordered or random')
const isDurable = values.durability === 'durable'
if (!isDurable && values.durability !== 'write-behind') throw new Error('--durability takes durable or write-behind')

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const randomId = (nowMs: number): string =>
  `gen-${Math.floor(nowMs / 1000)}-${[...randomBytes(20)].map((byte) => base62[byte % 62]).join('')}`
const generationIds = new GenerationIds()
const makeId = values.ids === 'random' ? randomId : (nowMs: number) => generationIds.next(nowMs)

const workspaceId = 'b1c2d3e4-0000-4000-8000-000000000001'
const organizationId = 'b1c2d3e4-0000-4000-8000-000000000002'
const keyHash = 'a'.repeat(64)

function record(id: string, createdAt: string): GenerationRecord {
  return {
    id,
    requestId: `req-${id}`,
    organizationId,
    workspaceId,
    keyHash,
    apiType: 'completions',
    dialect: 'openai-responses',
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    upstreamModelId: 'gpt-4o-mini',
    upstreamId: `resp_${id}`,
    streamed: false,
    cancelled: false,
    status: 'completed',
    finishReason: 'stop',
    nativeFinishReason: 'stop',
    tokensPrompt: 12,
    tokensCompletion: 30,
    tokensCached: 0,
    tokensReasoning: 0,
    costNano: 123_000n,
    unbilledExcessNano: 0n,
    responseCacheSourceId: null,
    isByok: false,
    latencyMs: 3,
    generationTimeMs: 2,
    sessionId: null,
    endUser: null,
    preset: null,
    serviceTier: null,
    attempts: [
      { model: 'openai/gpt-4o-mini', provider: 'openai', endpointId: 'openai-gpt-4o-mini', status: 200, latencyMs: 2 },
    ],
    errorStatus: null,
    errorMessage: null,
    httpReferer: null,
    userAgent: 'node',
    createdAt,
  }
}

const content: GenerationContent = {
  input: { messages: [{ role: 'user', content: 'Say hello to the benchmark, please.' }] },
  completion: 'Hello! This is the answer of the fake upstream.',
  reasoning: null,
  error: null,
}

function ledgerRow(id: string, createdAt: string): LedgerRow {
  return {
    id: `${id}:1`,
    generation_id: id,
    attempt: 1,
    key_hash: keyHash,
    workspace_id: workspaceId,
    organization_id: organizationId,
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    prompt_tokens: 12,
    completion_tokens: 30,
    reasoning_tokens: 0,
    cached_tokens: 0,
    cache_write_tokens: 0,
    cost_nano: '123000',
    is_byok: 0,
    end_user: null,
    created_at: createdAt,
  }
}

pinToCore(process.pid, 0)
const directory = mkdtempSync(join(tmpdir(), 'switchyard-store-bench-'))
const store = openStore(`sqlite:${join(directory, 'bench.db')}`)
if (values.through === undefined) await migrateToLatest(store)
else await migrateStoreTo(store, values.through)
const fail = (error: unknown): never => {
  throw error
}
const commits = new GroupCommit(store.writes, { onError: fail })
const generations = new GenerationStore(store.db, commits)
const ledger = new LedgerWriter(createLedgerRepository(store.db, store.writes), commits)
commits.start()
const waits = createHistogram()
const waiting = new Set<Promise<void>>()
function awaitCommit(): void {
  const started = process.hrtime.bigint()
  const done = commits.durable().then(() => {
    waits.record(Number(process.hrtime.bigint() - started) || 1)
    waiting.delete(done)
  })
  waiting.add(done)
}

// One second of warm-up, then the measured seconds: records arrive every 10 ms, rate / 100 at a time
// (rounded; the figures are per request actually added).
const tickMs = 10
const perTick = Math.max(1, Math.round(rate / (1000 / tickMs)))
let added = 0
async function drive(ticks: number): Promise<void> {
  const started = Date.now()
  for (let tick = 0; tick < ticks; tick++) {
    const now = Date.now()
    const createdAt = new Date(now).toISOString()
    for (let index = 0; index < perTick; index++) {
      const id = makeId(now)
      generations.add(record(id, createdAt), content)
      ledger.enqueue(ledgerRow(id, createdAt))
      if (isDurable) awaitCommit()
      added++
    }
    await sleep(Math.max(0, started + (tick + 1) * tickMs - Date.now()))
  }
}
await drive(1000 / tickMs)
const loop = monitorEventLoopDelay({ resolution: 1 })
loop.enable()
const before = process.cpuUsage()
const loopThreadBefore = threadSchedstat()
added = 0
waits.reset()
await drive((seconds * 1000) / tickMs)
await Promise.all(waiting)
await commits.close()
const used = process.cpuUsage(before)
const loopThreadAfter = threadSchedstat()
loop.disable()
const requests = added
const cpuMicros = used.user + used.system
console.log(
  `store writes: ${requests} requests (${(requests / seconds).toFixed(0)}/s) in ${seconds} s, ${values.ids} generation ids, ${values.durability}, migrations through ${values.through ?? 'the latest'}`,
)
if (isDurable)
  console.log(
    `  wait for the commit: p50 ${(waits.percentile(50) / 1e6).toFixed(2)} ms, p99 ${(waits.percentile(99) / 1e6).toFixed(2)} ms`,
  )
console.log(`  CPU per request (record + content + ledger row): ${(cpuMicros / requests).toFixed(1)} µs`)
if (loopThreadBefore !== null && loopThreadAfter !== null) {
  console.log(
    `    of which on the event loop's thread: ${((loopThreadAfter.cpuMicros - loopThreadBefore.cpuMicros) / requests).toFixed(1)} µs`,
  )
  console.log(
    `  event loop's thread waiting for the core: ${((loopThreadAfter.waitMicros - loopThreadBefore.waitMicros) / requests).toFixed(1)} µs per request`,
  )
}
console.log(
  `  event-loop delay: p99 ${(loop.percentile(99) / 1e6).toFixed(2)} ms, max ${(loop.max / 1e6).toFixed(2)} ms`,
)
await store.close()
rmSync(directory, { recursive: true, force: true })
