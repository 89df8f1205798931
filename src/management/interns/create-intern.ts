// POST /interns: idempotent creation of an intern and its private vault in one transaction. The
// Idempotency-Key header (or, without it, a key derived from the body) names the request: the same key
// with the same body replays the intern (200), with another body it is refused (422).
import { createHash, randomUUID } from 'node:crypto'
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { InternRow, InternsRepository } from '../../store/repositories/interns-repository.ts'
import type { VaultsRepository } from '../../store/repositories/vaults-repository.ts'
import type { VaultService } from '../vault/service.ts'
import type { Caller } from './caller.ts'
import type { CreateInternBody } from './schema.ts'

export interface CreateInternDeps {
  readonly interns: InternsRepository
  readonly vaults: VaultsRepository
  readonly vaultService: VaultService
  readonly clock: Clock
}

export function hashCreateBody(body: CreateInternBody): string {
  const canonical = JSON.stringify(Object.fromEntries(Object.entries(body).sort(([a], [b]) => (a < b ? -1 : 1))))
  return createHash('sha256').update(canonical, 'utf8').digest('hex')
}

export async function createIntern(
  deps: CreateInternDeps,
  caller: Caller,
  body: CreateInternBody,
  idempotencyKey: string | undefined,
): Promise<{ intern: InternRow; created: boolean }> {
  if (body.workspace_id !== undefined && body.workspace_id !== caller.workspaceId) {
    throw new GatewayError(
      'not_found',
      `Workspace ${body.workspace_id} is not the workspace of this API key; omit workspace_id or use a key of that workspace`,
    )
  }
  const requestHash = hashCreateBody(body)
  const key = idempotencyKey ?? `derived:${requestHash}`
  const replay = await findReplay(deps, caller, key, requestHash)
  if (replay !== undefined) return { intern: replay, created: false }
  if ((await deps.interns.findByName(caller.workspaceId, body.name)) !== undefined) throw nameTaken(body.name)
  const attachedVaultId = await checkAttachable(deps, caller, body.vault_id)
  const row = newInternRow(deps, caller, body, attachedVaultId)
  const vault = deps.vaultService.newInternVault(caller.workspaceId, row.id)
  row.vault_id = vault.id
  try {
    await deps.vaults.transaction(async (transaction) => {
      await transaction.insertInto('vaults').values(vault).execute()
      await deps.interns.insert(row, transaction)
      await deps.interns.insertIdempotency(
        {
          workspace_id: caller.workspaceId,
          idempotency_key: key,
          request_hash: requestHash,
          intern_id: row.id,
          created_at: row.created_at,
        },
        transaction,
      )
    })
  } catch (error) {
    // A concurrent request won a unique constraint: replay its intern or report the name conflict.
    const raced = await findReplay(deps, caller, key, requestHash)
    if (raced !== undefined) return { intern: raced, created: false }
    if ((await deps.interns.findByName(caller.workspaceId, body.name)) !== undefined) throw nameTaken(body.name)
    throw error
  }
  return { intern: row, created: true }
}

function nameTaken(name: string): GatewayError {
  return new GatewayError('conflict', `An intern named "${name}" already exists in this workspace; choose another name`)
}

async function findReplay(
  deps: CreateInternDeps,
  caller: Caller,
  key: string,
  requestHash: string,
): Promise<InternRow | undefined> {
  const record = await deps.interns.findIdempotency(caller.workspaceId, key)
  if (record === undefined) return undefined
  if (record.request_hash !== requestHash) {
    throw new GatewayError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request body; send a new key for a new request',
    )
  }
  const intern = await deps.interns.findById(record.intern_id)
  if (intern === undefined)
    throw new GatewayError(
      'not_found',
      `The intern created with this Idempotency-Key (${record.intern_id}) no longer exists`,
    )
  return intern
}

async function checkAttachable(
  deps: CreateInternDeps,
  caller: Caller,
  vaultId: string | undefined,
): Promise<string | null> {
  if (vaultId === undefined) return null
  const vault = await deps.vaults.findVault(vaultId)
  const owner = vault === undefined ? undefined : await deps.interns.findByVault(vault.id)
  if (
    vault === undefined ||
    owner === undefined ||
    owner.workspace_id !== caller.workspaceId ||
    owner.status === 'destroying' ||
    owner.status === 'destroy_failed'
  ) {
    throw new GatewayError(
      'conflict',
      `vault_id ${vaultId} cannot be attached: it must be the vault_id of another live intern in this workspace`,
    )
  }
  return vault.id
}

function newInternRow(
  deps: CreateInternDeps,
  caller: Caller,
  body: CreateInternBody,
  attachedVaultId: string | null,
): InternRow {
  const now = deps.clock.now().toISOString()
  return {
    id: randomUUID(),
    workspace_id: caller.workspaceId,
    name: body.name,
    description: body.description ?? null,
    instructions: body.instructions ?? null,
    model: null,
    hostname: null,
    status: body.provision === true ? 'queued' : 'stopped',
    progress: null,
    last_failure_message: null,
    vault_id: '',
    attached_vault_id: attachedVaultId,
    created_at: now,
    updated_at: now,
  }
}
