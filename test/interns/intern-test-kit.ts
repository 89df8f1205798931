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
  await createOrganizationsRepository(gateway.gateway.store.db).insertWorkspace({
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
  await createApiKeysRepository(gateway.gateway.store.db).insert({
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

export async function call(gateway: TestGateway, key: string, request: Call) {
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
    json: text === '' ? undefined : (JSON.parse(text) as any),
    headers: response.headers,
  }
}

export async function createInternVia(gateway: TestGateway, key: string, body: Record<string, unknown>): Promise<any> {
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
    db: gateway.gateway.store.db,
    config: { ...base, interns: { workspaces: ['*'] } },
    clock: systemClock,
    changeBus: gateway.gateway.changeBus,
    masterBox: gateway.gateway.secretBox,
    ...(listTimeoutMs === undefined ? {} : { listTimeoutMs }),
  })
}

export const callerFor = (workspaceId: string): Caller => ({ workspaceId, internId: null, isInternKey: false })
