// What the listing indexes (migration 0012) cost each write on a big store: `count` generation records
// written through the gateway's own GenerationStore and group commit (32 records a transaction, as
// under load, each transaction with its records' daily activity sums), once on the migrated store and
// once without the listing indexes. Reports records per second (wall clock) and this process's CPU per record (every
// thread: on SQLite that includes the write worker, on PostgreSQL the server's work is not in it).
import { GenerationIds } from '../src/inference/generation-ids.ts'
import { GenerationStore } from '../src/generations/generation-store.ts'
import type { GenerationRecord } from '../src/generations/generation-record.ts'
import { GroupCommit } from '../src/store/group-commit.ts'
import { openStore } from '../src/store/open-store.ts'
import type { SeedKey } from './listing-seed.ts'
import { chatModel, providerOf } from './listing-seed.ts'

export interface InsertCost {
  readonly recordsPerSecond: number
  readonly cpuMicrosPerRecord: number
}

function record(id: string, organizationId: string, key: SeedKey, index: number): GenerationRecord {
  const model = chatModel(index % 24)
  const provider = providerOf(index % 24, 0)
  return {
    id,
    requestId: `req-${id}`,
    organizationId,
    workspaceId: key.workspaceId,
    keyHash: key.hash,
    apiType: 'completions',
    dialect: 'openai-chat',
    model,
    provider,
    upstreamModelId: model.split('/')[1]!,
    upstreamId: null,
    streamed: false,
    cancelled: false,
    status: 'completed',
    finishReason: 'stop',
    nativeFinishReason: 'stop',
    tokensPrompt: 100 + index,
    tokensCompletion: 50,
    tokensCached: 0,
    tokensReasoning: 0,
    costNano: 123_000n,
    unbilledExcessNano: 0n,
    responseCacheSourceId: null,
    isByok: false,
    latencyMs: 300,
    generationTimeMs: 250,
    sessionId: index % 3 === 0 ? `sess-insert-${index % 500}` : null,
    endUser: index % 2 === 0 ? `user-${index % 50_000}` : null,
    preset: null,
    serviceTier: null,
    attempts: [{ model, provider, endpointId: `${provider}/${model.split('/')[1]}`, status: 200, latencyMs: 300 }],
    errorStatus: null,
    errorMessage: null,
    httpReferer: null,
    userAgent: 'bench-client/1.0',
    createdAt: new Date().toISOString(),
  }
}

export async function measureInserts(
  url: string,
  organizationId: string,
  keys: readonly SeedKey[],
  count: number,
): Promise<InsertCost> {
  const store = openStore(url)
  const commits = new GroupCommit(store.writes, {
    onError: (error) => {
      throw error
    },
  })
  commits.start()
  const generations = new GenerationStore(store.db, commits)
  const ids = new GenerationIds()
  try {
    const cpu = process.cpuUsage()
    const started = performance.now()
    for (let index = 0; index < count; index++) {
      generations.add(record(ids.next(Date.now()), organizationId, keys[index % keys.length]!, index), null)
      if (index % 1000 === 999) await generations.flush()
    }
    await generations.flush()
    const seconds = (performance.now() - started) / 1000
    const used = process.cpuUsage(cpu)
    return { recordsPerSecond: count / seconds, cpuMicrosPerRecord: (used.user + used.system) / count }
  } finally {
    await commits.close()
    await store.close()
  }
}
