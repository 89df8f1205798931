// Arranges generation records for the listing and activity contract suites: a workspace of its own per
// test, keys in it, and records written through the gateway's own generation store.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import type { ApiKeyKind } from '../../src/domain/identity.ts'
import type { GenerationRecord } from '../../src/generations/generation-record.ts'
import { toGenerationRow } from '../../src/generations/generation-row.ts'
import { generateKeySecret, hashKeySecret, labelKeySecret } from '../../src/identity/api-key-secret.ts'
import { createApiKeysRepository } from '../../src/store/repositories/api-keys-repository.ts'
import { createOrganizationsRepository } from '../../src/store/repositories/organizations-repository.ts'
import type { TestGateway } from '../support/test-gateway.ts'

export const engines = (postgres: { skip: string | false; url: string | undefined }) => [
  { name: 'sqlite', skip: false as string | false, url: undefined as string | undefined },
  { name: 'postgres', skip: postgres.skip, url: postgres.url },
]

/** One item of `GET /api/v1/activity` as the contract tests read it. */
export interface ActivityItem {
  date: string
  model: string
  endpoint_id: string
  provider_name: string
  usage: number
  byok_usage_inference: number
  requests: number
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens: number
  workspace_id?: string
}

export interface MintedKey {
  readonly plaintext: string
  readonly hash: string
}

export class RecordsFixture {
  constructor(private readonly gateway: TestGateway) {}

  get organizationId(): string {
    return this.gateway.gateway.bootstrap.organizationId
  }

  async workspace(): Promise<string> {
    const id = randomUUID()
    await createOrganizationsRepository(this.gateway.store.db).insertWorkspace({
      id,
      organizationId: this.organizationId,
      name: `Workspace ${id.slice(0, 8)}`,
      slug: `ws-${id.slice(0, 8)}`,
      isDefault: false,
      createdBy: null,
      createdAt: new Date().toISOString(),
    })
    return id
  }

  async key(
    workspaceId: string,
    kind: ApiKeyKind = 'inference',
    internId: string | null = null,
    creatorUserId: string | null = null,
  ): Promise<MintedKey> {
    const plaintext = generateKeySecret()
    const hash = hashKeySecret(plaintext)
    await createApiKeysRepository(this.gateway.store.db).insert({
      hash,
      kind,
      name: kind,
      label: labelKeySecret(plaintext),
      organizationId: this.organizationId,
      workspaceId,
      internId,
      creatorUserId,
      createdAt: new Date().toISOString(),
    })
    return { plaintext, hash }
  }

  /** Stores the records (without content), as the gateway would have, and waits until they are stored. */
  write(records: readonly GenerationRecord[]): Promise<void> {
    return this.gateway.storeGenerations(records.map((record) => ({ record, content: null })))
  }

  record(workspaceId: string, key: MintedKey, fields: Partial<GenerationRecord> = {}): GenerationRecord {
    return {
      id: `gen-${randomUUID()}`,
      requestId: null,
      organizationId: this.organizationId,
      workspaceId,
      keyHash: key.hash,
      apiType: 'completions',
      dialect: 'openai-chat',
      model: 'acme/fast-1',
      provider: 'acme',
      upstreamModelId: 'fast-1',
      upstreamId: null,
      streamed: false,
      cancelled: false,
      status: 'completed',
      finishReason: 'stop',
      nativeFinishReason: 'stop',
      tokensPrompt: 10,
      tokensCompletion: 20,
      tokensCached: 0,
      tokensReasoning: 5,
      costNano: 1_000_000n,
      unbilledExcessNano: 0n,
      responseCacheSourceId: null,
      isByok: false,
      latencyMs: 40,
      generationTimeMs: 200,
      sessionId: null,
      endUser: null,
      preset: null,
      serviceTier: null,
      attempts: [{ model: 'acme/fast-1', provider: 'acme', endpointId: 'acme/fast-1', status: 200, latencyMs: 40 }],
      errorStatus: null,
      errorMessage: null,
      httpReferer: null,
      userAgent: null,
      createdAt: new Date().toISOString(),
      ...fields,
    }
  }
}

/** GET `path` on the listening gateway with `key`; the status and the parsed JSON body. */
export async function getJson(
  baseUrl: string,
  key: string,
  path: string,
): Promise<{
  status: number
  body: Record<string, unknown> & { error?: { code: number; message: string; metadata?: Record<string, unknown> } }
}> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** A record's row as the table held it before migration 0016 added response_cache_source_id. */
export function rowBeforeResponseCache(value: GenerationRecord) {
  const { response_cache_source_id: added, ...row } = toGenerationRow(value)
  if (added !== null) throw new Error('a record written before migration 0016 has no response cache source')
  return row
}

/** `GET /api/v1/activity?<query>` as `key` sees it; anything but a 200 fails the test. */
export async function getActivity(baseUrl: string, key: string, query: string): Promise<ActivityItem[]> {
  const { status, body } = await getJson(baseUrl, key, `/api/v1/activity?${query}`)
  assert.equal(status, 200, JSON.stringify(body))
  return body.data as ActivityItem[]
}
