// Shared set-up for the intern and vault HTTP tests: keys of every kind, extra workspaces, and helpers
// that speak to the real gateway.
import { randomUUID } from 'node:crypto'
import assert from 'node:assert/strict'
import type { ApiKeyKind } from '../../src/domain/identity.ts'
import { createApiKeysRepository } from '../../src/store/repositories/api-keys-repository.ts'
import { createOrganizationsRepository } from '../../src/store/repositories/organizations-repository.ts'
import { generateKeySecret, hashKeySecret, labelKeySecret } from '../../src/identity/api-key-secret.ts'
import { bearer, type TestGateway } from '../support/test-gateway.ts'
import { tmpdir } from 'node:os'
import { loadConfig } from '../../src/config/load-config.ts'
import { systemClock } from '../../src/domain/clock.ts'
import { createInternAndVault, type InternAndVault } from '../../src/management/interns/intern-and-vault.ts'
import type { Caller } from '../../src/management/interns/caller.ts'

export async function addWorkspace(gateway: TestGateway, slug: string): Promise<string> {
  const id = randomUUID()
  await createOrganizationsRepository(gateway.store.db).insertWorkspace({
    id,
    organizationId: gateway.gateway.bootstrap.organizationId,
    name: slug,
    slug,
    isDefault: false,
    createdBy: null,
    createdAt: new Date().toISOString(),
  })
  return id
}

export async function mintKey(
  gateway: TestGateway,
  kind: ApiKeyKind,
  workspaceId: string,
  internId: string | null = null,
): Promise<string> {
  const plaintext = generateKeySecret()
  await createApiKeysRepository(gateway.store.db).insert({
    hash: hashKeySecret(plaintext),
    kind,
    name: `${kind} key`,
    label: labelKeySecret(plaintext),
    organizationId: gateway.gateway.bootstrap.organizationId,
    workspaceId,
    internId,
    createdAt: new Date().toISOString(),
  })
  return plaintext
}

export interface Call {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  readonly url: string
  readonly body?: unknown
  readonly headers?: Record<string, string>
}

/** An intern, a secret or a minted key as the routes show it, with the fields these tests read. */
export interface ItemView {
  readonly id: string
  readonly name: string
  readonly status: string
  readonly scope: string
  readonly hosts: readonly string[] | null
  readonly fingerprint: string | null
  readonly created_at: string
  readonly intern_id: string
}

/** A page of items, for `call<ItemList>` on a list route. */
export type ItemList = readonly ItemView[]

/**
 * What the intern and vault routes answer, with the fields these tests read: an intern (its fields at the
 * top level), an item or a page of items in `data`, a minted key, or the error envelope. A field the answer
 * lacks reads undefined, and the assertion that reads it fails.
 */
export interface ManagementJson<Data = ItemView> {
  readonly id: string
  readonly name: string
  readonly status: string
  readonly workspace_id: string
  readonly description: string | null
  readonly instructions: string | null
  readonly model: string
  readonly hostname: string
  readonly progress: { readonly step_number?: number } | null
  readonly vault_id: string
  readonly attached_vault_id: string | null
  readonly last_failure_message: string | null
  readonly data: Data
  readonly has_more: boolean
  readonly next_cursor?: string
  readonly key: string
  readonly error: {
    readonly code: number
    readonly message: string
    readonly metadata?: { readonly reason: string; readonly retryable: boolean }
  }
}

export interface CallAnswer<Data = ItemView> {
  readonly status: number
  readonly text: string
  /** The parsed body; undefined when it is empty (a 204), which the tests check by status alone. */
  readonly json: ManagementJson<Data>
  readonly headers: Record<string, string | string[] | number | undefined>
}

/** Calls the gateway with a key; `Data` names what the route puts in `data` (a list route: `ItemList`). */
export async function call<Data = ItemView>(
  gateway: TestGateway,
  key: string,
  request: Call,
): Promise<CallAnswer<Data>> {
  const response = await gateway.inject({
    method: request.method,
    url: request.url,
    headers: { ...bearer(key), ...request.headers },
    ...(request.body === undefined ? {} : { payload: request.body as object }),
  })
  const text = response.body
  return {
    status: response.statusCode,
    text,
    json: text === '' ? undefined : JSON.parse(text),
    headers: response.headers,
  }
}

export async function createInternVia(
  gateway: TestGateway,
  key: string,
  body: Record<string, unknown>,
): Promise<ManagementJson> {
  const response = await call(gateway, key, { method: 'POST', url: '/api/v1/interns', body })
  assert.equal(response.status, 201, response.text)
  return response.json
}

/** Config for tests of the management API alone: no intern runtime moves interns behind their back. */
export const noRuntime = 'interns:\n  runtime: false\n'

export const secretBody = (value: string, hosts: string[] = ['api.example.com']) => ({ hosts, value })

/** The real intern and vault services over the gateway's store, with every workspace in the programme (to seed data a route would refuse). */
export function seedingArea(gateway: TestGateway, listTimeoutMs?: number): InternAndVault {
  const base = loadConfig({ env: { LOG_LEVEL: 'silent' }, cwd: tmpdir() })
  return createInternAndVault({
    db: gateway.store.db,
    config: { ...base, interns: { workspaces: ['*'] } },
    clock: systemClock,
    // internals: seeded changes are announced on the gateway's own bus, as its routes would announce them.
    changeBus: gateway.internals.foundation.changeBus,
    masterBox: gateway.secretBox,
    ...(listTimeoutMs === undefined ? {} : { listTimeoutMs }),
  })
}

export const callerFor = (workspaceId: string): Caller => ({ workspaceId, internId: null, isInternKey: false })
