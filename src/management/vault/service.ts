// Vault rules: workspace and intern scopes, create-or-replace, copy into an intern, effective secrets.
// Values are sealed under the vault's data key before they reach the store and never leave this module
// except re-sealed into another vault (copy).
import { randomUUID } from 'node:crypto'
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { SecretBox } from '../../vault/secret-box.ts'
import { VaultCipher, createVaultKeys } from '../../vault/vault-keys.ts'
import { normalizeHosts } from '../../vault/normalize-hosts.ts'
import type { VaultRow, VaultSecretRow, VaultsRepository } from '../../store/repositories/vaults-repository.ts'
import type { InternRow, InternsRepository } from '../../store/repositories/interns-repository.ts'
import type { Caller } from '../interns/caller.ts'
import type { EffectiveSecret, SecretWriteBody, VaultSecret } from './schema.ts'
import { resolveEffectiveSecrets } from './resolve-effective-secrets.ts'
import { toVaultSecret } from './to-vault-secret.ts'
import { withDeadline } from '../interns/with-deadline.ts'

export interface VaultServiceDeps {
  readonly vaults: VaultsRepository
  readonly interns: InternsRepository
  readonly masterBox: SecretBox
  readonly clock: Clock
  /** Secret lists give up after this long with 408 (default 10 s). */
  readonly listTimeoutMs?: number
}

export interface Page {
  readonly offset: number
  readonly limit: number
}

const unavailableStatuses = new Set(['destroying', 'destroy_failed'])

export function createVaultService(deps: VaultServiceDeps): VaultService {
  return new VaultService(deps)
}

/** The vault operations over the workspace vault, an intern's own vault and the vault it borrows. */
export class VaultService {
  readonly #deps: VaultServiceDeps

  constructor(deps: VaultServiceDeps) {
    this.#deps = deps
  }

  /** The caller's workspace vault, created on first use. */
  async workspaceVault(workspaceId: string): Promise<VaultRow> {
    const { vaults, masterBox, clock } = this.#deps
    const owner = `workspace:${workspaceId}`
    const existing = await vaults.findVaultByOwner(owner)
    if (existing !== undefined) return existing
    const id = randomUUID()
    return vaults.ensureVault({
      id,
      workspace_id: workspaceId,
      intern_id: null,
      owner,
      ...createVaultKeys(masterBox, id),
      created_at: clock.now().toISOString(),
    })
  }

  async listWorkspaceSecrets(caller: Caller, page: Page): Promise<{ data: VaultSecret[]; has_more: boolean }> {
    return this.#list(await this.workspaceVault(caller.workspaceId), page)
  }

  async storeWorkspaceSecret(caller: Caller, name: string, body: SecretWriteBody): Promise<VaultSecret> {
    return this.#store(await this.workspaceVault(caller.workspaceId), name, body)
  }

  async deleteWorkspaceSecret(caller: Caller, name: string): Promise<void> {
    return this.#remove(await this.workspaceVault(caller.workspaceId), name, 'workspace')
  }

  async listInternSecrets(
    caller: Caller,
    internId: string,
    page: Page,
  ): Promise<{ data: VaultSecret[]; has_more: boolean }> {
    return this.#list(await this.#internVault(caller, internId), page)
  }

  async storeInternSecret(caller: Caller, internId: string, name: string, body: SecretWriteBody): Promise<VaultSecret> {
    return this.#store(await this.#internVault(caller, internId), name, body)
  }

  async deleteInternSecret(caller: Caller, internId: string, name: string): Promise<void> {
    return this.#remove(await this.#internVault(caller, internId), name, 'intern')
  }

  /** Copies workspace secrets into an intern's vault: all or nothing, replacing same-named secrets. */
  async copyToIntern(caller: Caller, internId: string, names: readonly string[]): Promise<{ data: VaultSecret[] }> {
    refuseRepeatedNames(names)
    const { vaults, clock } = this.#deps
    const target = await this.#internVault(caller, internId)
    const source = await this.workspaceVault(caller.workspaceId)
    const sourceCipher = this.#cipherFor(source)
    const targetCipher = this.#cipherFor(target)
    const copies = await vaults.transaction(async (transaction) => {
      const rows = await vaults.findSecrets(source.id, names, transaction)
      const missing = names.filter((name) => !rows.some((row) => row.name === name))
      if (missing.length > 0)
        throw new GatewayError(
          'not_found',
          `No workspace secret named ${missing.map((name) => `"${name}"`).join(', ')}; nothing was copied`,
        )
      const legacy = rows.filter((row) => row.hosts === null).map((row) => `"${row.name}"`)
      if (legacy.length > 0) {
        throw new GatewayError(
          'conflict',
          `Workspace secret ${legacy.join(', ')} has no hosts (stored before host binding); store it again with hosts, then copy. Nothing was copied`,
        )
      }
      const now = clock.now().toISOString()
      const written: VaultSecretRow[] = []
      for (const row of rows) {
        const value = sourceCipher.open(row.name, row.value_sealed)
        const copy = {
          vault_id: target.id,
          name: row.name,
          hosts: row.hosts,
          fingerprint: targetCipher.fingerprint(value),
          value_sealed: targetCipher.seal(row.name, value),
          created_at: now,
        }
        await vaults.upsertSecret(copy, transaction)
        written.push(copy)
      }
      return written
    })
    return { data: copies.sort((a, b) => (a.name < b.name ? -1 : 1)).map(toVaultSecret) }
  }

  async effectiveSecrets(
    caller: Caller,
    internId: string,
    page: Page,
  ): Promise<{ data: EffectiveSecret[]; has_more: boolean }> {
    const intern = await this.#internInScope(caller, internId)
    const attached = await this.#attachedVault(intern)
    const workspace = await this.workspaceVault(caller.workspaceId)
    const vaultIds = [intern.vault_id, workspace.id, ...(attached === null ? [] : [attached.id])]
    const rows = await withDeadline(
      this.#deps.vaults.listAllSecrets(vaultIds),
      this.#deps.listTimeoutMs ?? 10_000,
      'Listing effective secrets',
    )
    const effective = resolveEffectiveSecrets(rows, {
      intern: intern.vault_id,
      attached: attached?.id ?? null,
      workspace: workspace.id,
    })
    return {
      data: effective.slice(page.offset, page.offset + page.limit),
      has_more: effective.length > page.offset + page.limit,
    }
  }

  /**
   * For the intern runtime's egress only: the intern's effective secret `name` (intern > attached >
   * workspace) decrypted, with its bound hosts (null for a legacy secret, which is never released), or
   * null when no scope has it. The value must go nowhere but the outbound request it is bound to.
   */
  async openEffectiveSecret(internId: string, name: string): Promise<{ value: string; hosts: string[] | null } | null> {
    const { vaults, interns } = this.#deps
    const intern = await interns.findById(internId)
    if (intern === undefined || unavailableStatuses.has(intern.status)) return null
    const attached = await this.#attachedVault(intern).catch(() => null)
    const ordered = [await vaults.findVault(intern.vault_id), attached, await this.workspaceVault(intern.workspace_id)]
    for (const vault of ordered) {
      if (vault === undefined || vault === null) continue
      const [row] = await vaults.findSecrets(vault.id, [name])
      if (row === undefined) continue
      return {
        value: this.#cipherFor(vault).open(row.name, row.value_sealed),
        hosts: row.hosts === null ? null : (JSON.parse(row.hosts) as string[]),
      }
    }
    return null
  }

  /**
   * Migration path for secrets stored before host binding: stores a workspace secret with hosts and
   * fingerprint null. It lists and resolves like any secret, cannot be copied, and storing it again
   * through PUT assigns hosts and a fingerprint.
   */
  async importLegacyWorkspaceSecret(workspaceId: string, name: string, value: string): Promise<void> {
    const vault = await this.workspaceVault(workspaceId)
    const cipher = this.#cipherFor(vault)
    await this.#deps.vaults.upsertSecret({
      vault_id: vault.id,
      name,
      hosts: null,
      fingerprint: null,
      value_sealed: cipher.seal(name, value),
      created_at: this.#deps.clock.now().toISOString(),
    })
  }

  /** Creates an intern's own vault inside the caller's transaction (used by intern creation). */
  newInternVault(workspaceId: string, internId: string): VaultRow {
    const id = randomUUID()
    return {
      id,
      workspace_id: workspaceId,
      intern_id: internId,
      owner: `intern:${internId}`,
      ...createVaultKeys(this.#deps.masterBox, id),
      created_at: this.#deps.clock.now().toISOString(),
    }
  }

  #cipherFor(vault: VaultRow): VaultCipher {
    return new VaultCipher(this.#deps.masterBox, vault.id, vault)
  }

  async #internInScope(caller: Caller, internId: string): Promise<InternRow> {
    const intern = await this.#deps.interns.findById(internId)
    if (
      intern === undefined ||
      intern.workspace_id !== caller.workspaceId ||
      (caller.isInternKey && caller.internId !== internId)
    ) {
      throw new GatewayError('not_found', `No intern ${internId} in this key's workspace`)
    }
    return intern
  }

  async #internVault(caller: Caller, internId: string): Promise<VaultRow> {
    const intern = await this.#internInScope(caller, internId)
    const vault = await this.#deps.vaults.findVault(intern.vault_id)
    if (vault === undefined) throw new GatewayError('not_found', `The vault of intern ${internId} no longer exists`)
    return vault
  }

  async #list(vault: VaultRow, page: Page): Promise<{ data: VaultSecret[]; has_more: boolean }> {
    const rows = await withDeadline(
      this.#deps.vaults.listSecrets(vault.id, page.offset, page.limit + 1),
      this.#deps.listTimeoutMs ?? 10_000,
      'Listing secrets',
    )
    return { data: rows.slice(0, page.limit).map(toVaultSecret), has_more: rows.length > page.limit }
  }

  async #store(vault: VaultRow, name: string, body: SecretWriteBody): Promise<VaultSecret> {
    const hosts = normalizeHosts(body.hosts)
    const cipher = this.#cipherFor(vault)
    const row: VaultSecretRow = {
      vault_id: vault.id,
      name,
      hosts: JSON.stringify(hosts),
      fingerprint: cipher.fingerprint(body.value),
      value_sealed: cipher.seal(name, body.value),
      created_at: this.#deps.clock.now().toISOString(),
    }
    await this.#deps.vaults.upsertSecret(row)
    return toVaultSecret(row)
  }

  async #remove(vault: VaultRow, name: string, scope: string): Promise<void> {
    if (!(await this.#deps.vaults.deleteSecret(vault.id, name)))
      throw new GatewayError('not_found', `No secret named "${name}" in the ${scope} vault`)
  }

  async #attachedVault(intern: InternRow): Promise<VaultRow | null> {
    const { vaults, interns } = this.#deps
    if (intern.attached_vault_id === null) return null
    const vault = await vaults.findVault(intern.attached_vault_id)
    const owner = vault === undefined ? undefined : await interns.findByVault(vault.id)
    if (vault === undefined || owner === undefined || unavailableStatuses.has(owner.status)) {
      throw new GatewayError(
        'not_found',
        `The vault this intern borrows (${intern.attached_vault_id}) is no longer available; recreate the intern without vault_id or attach another vault`,
      )
    }
    return vault
  }
}

/** The schema bounds `names` (at most 100); uniqueness is checked here, in linear time, not by the schema. */
function refuseRepeatedNames(names: readonly string[]): void {
  const seen = new Set<string>()
  for (const name of names) {
    if (seen.has(name)) {
      throw new GatewayError(
        'invalid_request',
        `Invalid request parameters: body.names: "${name}" is listed more than once; list each secret name once`,
        { metadata: { reason: 'invalid_body', retryable: false } },
      )
    }
    seen.add(name)
  }
}
