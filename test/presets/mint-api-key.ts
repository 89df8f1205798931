// Inserts an API key of any kind directly in the store (the keys routes belong to another area).
import { createApiKeysRepository } from '../../src/store/repositories/api-keys-repository.ts'
import { generateKeySecret, hashKeySecret, labelKeySecret } from '../../src/identity/api-key-secret.ts'
import type { ApiKeyKind } from '../../src/domain/identity.ts'
import type { TestGateway } from '../support/test-gateway.ts'

export async function mintApiKey(gateway: TestGateway, kind: ApiKeyKind, workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId): Promise<{ plaintext: string; hash: string }> {
  const plaintext = generateKeySecret()
  const hash = hashKeySecret(plaintext)
  await createApiKeysRepository(gateway.gateway.store.db).insert({
    hash,
    kind,
    name: `${kind} key`,
    label: labelKeySecret(plaintext),
    organizationId: gateway.gateway.bootstrap.organizationId,
    workspaceId,
    createdAt: new Date().toISOString(),
  })
  return { plaintext, hash }
}
