// Shared steps of the private endpoint tests: a gateway that may reach loopback, management calls, a
// key in a workspace, the generation cost of a call.
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { bearer, type TestGateway } from '../support/test-gateway.ts'

export const negotiated = { prompt: '0.000003', completion: '0.000007' }

/** A private endpoint, a validation, or both, as `data` holds them, with the fields these tests read. */
export interface EndpointData {
  readonly id: string
  readonly status: string
  readonly model_name: string
  readonly declared_region: string
  readonly pricing: unknown
  readonly passed: boolean
  readonly checks: readonly { readonly name: string; readonly passed: boolean }[]
  readonly endpoint: EndpointData
  readonly validation: EndpointData
}

/** A page of endpoints, for `manage<EndpointList>` on the list route. */
export type EndpointList = readonly (EndpointData & { readonly model_permaslug: string })[]

/**
 * What the management routes answer, with the fields these tests read: `data`, a minted `key`, or the
 * error envelope. A field the answer lacks reads undefined, and the assertion that reads it fails.
 */
export interface ManagementBody<Data = EndpointData> {
  readonly data: Data
  readonly key: string
  readonly error: { readonly code: number; readonly message: string; readonly metadata: { readonly reason: string } }
}

export interface Answer<Data = EndpointData> {
  readonly status: number
  /** The parsed JSON: every management route answers with a JSON body. */
  readonly body: ManagementBody<Data>
  readonly text: string
}

/** Calls a management route with the admin key; `Data` names what the route puts in `data`. */
export async function manage<Data = EndpointData>(
  gateway: TestGateway,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer<Data>> {
  const response = await gateway.inject({
    method,
    url: `/api/v1${url}`,
    headers: { ...bearer(gateway.adminKey), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  })
  return { status: response.statusCode, body: response.json(), text: response.body }
}

export function endpointBody(upstreamUrl: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model_permaslug: 'acme/private-1',
    provider_slug: 'openai-chat',
    upstream_model_id: 'acme-private-1',
    base_url: upstreamUrl,
    declared_region: 'europe',
    declared_zdr: true,
    pricing: negotiated,
    api_key: 'pe-secret',
    ...overrides,
  }
}

export async function createWorkspaceKey(
  gateway: TestGateway,
  slug: string | null,
): Promise<{ key: string; workspaceId: string }> {
  let workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
  if (slug !== null) {
    const workspace = await manage(gateway, 'POST', '/workspaces', { name: slug, slug })
    assert.equal(workspace.status, 201, workspace.text)
    workspaceId = workspace.body.data.id
  }
  const created = await manage(gateway, 'POST', '/keys', {
    name: `key-${slug ?? 'default'}`,
    workspace_id: workspaceId,
  })
  assert.equal(created.status, 201, created.text)
  return { key: created.body.key, workspaceId }
}

/** The generation record's cost (written after the answer, so polled). */
export async function generationCostNano(gateway: TestGateway, generationId: string): Promise<bigint> {
  for (let attempt = 0; attempt < 200; attempt++) {
    await gateway.drained()
    const row = await gateway.store.db
      .selectFrom('generations')
      .select(['cost_nano'])
      .where('id', '=', generationId)
      .executeTakeFirst()
    if (row !== undefined) return BigInt(row.cost_nano)
    await sleep(10)
  }
  throw new Error(`generation ${generationId} was never recorded`)
}

export async function ledgerCostNano(gateway: TestGateway, generationId: string): Promise<bigint> {
  for (let attempt = 0; attempt < 200; attempt++) {
    await gateway.drained()
    const rows = await gateway.store.db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('generation_id', '=', generationId)
      .execute()
    if (rows.length > 0)
      return rows.reduce((sum, row) => sum + BigInt((row as { cost_nano: string | number }).cost_nano), 0n)
    await sleep(10)
  }
  throw new Error(`no ledger row for ${generationId}`)
}

export async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    if (condition()) return
    await sleep(10)
  }
  throw new Error(`timed out waiting for ${what}`)
}
