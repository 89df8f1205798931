// Inserts an API key of any kind directly in the store (the keys routes belong to another area).
import type { ApiKeyKind } from '../../src/domain/identity.ts'
import type { TestGateway } from '../support/test-gateway.ts'
import { mintKey } from '../workspaces/management-fixtures.ts'

export function mintApiKey(
  gateway: TestGateway,
  kind: ApiKeyKind,
  workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId,
): Promise<{ plaintext: string; hash: string }> {
  return mintKey(gateway, { kind, workspaceId, name: `${kind} key` })
}
