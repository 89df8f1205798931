// For the migration tests of the activity tables (0014, 0015, 0017, 0018): a migrator over a store's
// own schema, and one generation record, a completed chat call of model `m/x` at provider `p` through
// endpoint `e` with one completion token, of which each test names only what its sums are about.
import { Migrator } from 'kysely'
import type { GenerationRecord } from '../../src/generations/generation-record.ts'
import { migrations } from '../../src/store/migrations/index.ts'
import type { Store } from '../../src/store/open-store.ts'

/** A migrator for `store` that can move it to any migration, its schema created first (PostgreSQL). */
export async function migratorFor(store: Store): Promise<Migrator> {
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => ({ ...migrations }) },
    ...(store.schema !== null ? { migrationTableSchema: store.schema } : {}),
  })
  if (store.schema !== null) await store.db.schema.createSchema(store.schema).ifNotExists().execute()
  return migrator
}

type Named = Pick<GenerationRecord, 'id' | 'createdAt'> & Partial<GenerationRecord>

export function migrationRecord(fields: Named, endpointId = 'e'): GenerationRecord {
  return {
    requestId: null,
    organizationId: 'org',
    workspaceId: 'ws',
    keyHash: 'k',
    apiType: 'completions',
    dialect: 'openai-chat',
    model: 'm/x',
    provider: 'p',
    upstreamModelId: null,
    upstreamId: null,
    streamed: false,
    cancelled: false,
    status: 'completed',
    finishReason: null,
    nativeFinishReason: null,
    tokensPrompt: 0,
    tokensCompletion: 1,
    tokensCached: 0,
    tokensReasoning: 0,
    costNano: 0n,
    unbilledExcessNano: 0n,
    responseCacheSourceId: null,
    isByok: false,
    latencyMs: null,
    generationTimeMs: null,
    sessionId: null,
    endUser: null,
    preset: null,
    serviceTier: null,
    attempts: [{ model: 'm/x', provider: 'p', endpointId, status: 200, latencyMs: 1 }],
    errorStatus: null,
    errorMessage: null,
    httpReferer: null,
    userAgent: null,
    ...fields,
  }
}

/** A record of `promptTokens` prompt tokens at 10 nano-dollars each, at noon of `day`. */
export function tokensRecord(id: string, day: string, workspaceId: string, keyHash: string, promptTokens: number) {
  return migrationRecord({
    id,
    createdAt: `${day}T12:00:00.000Z`,
    workspaceId,
    keyHash,
    tokensPrompt: promptTokens,
    costNano: BigInt(promptTokens * 10),
    isByok: keyHash === 'byok',
  })
}
