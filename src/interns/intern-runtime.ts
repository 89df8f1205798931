// The intern runtime: an in-process worker that moves interns through the lifecycle. It picks queued
// interns and provisions them (queued -> provisioning with progress steps -> running): a private working
// directory under the data directory, the intern's vault, an intern-confined API key whose plaintext is
// discarded at once (the runtime uses the key record in-process, so nobody can present it over HTTP),
// and a hostname `<name>.<interns domain>`. It tears down interns being deleted (the row disappears,
// or destroy_failed with the reason). Running interns are kept as handles in memory and come back on
// start; a suspended intern (stopped) loses its handle on the next tick.
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Clock } from '../domain/clock.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { ChangeBus } from '../events/change-bus.ts'
import { generateKeySecret, hashKeySecret, labelKeySecret } from '../identity/api-key-secret.ts'
import type { InternService } from '../management/interns/service.ts'
import type { VaultService } from '../management/vault/service.ts'
import type { ApiKeysRepository } from '../store/repositories/api-keys-repository.ts'
import type { InternRow, InternsRepository } from '../store/repositories/interns-repository.ts'
import type { VaultsRepository } from '../store/repositories/vaults-repository.ts'

export interface RunningIntern {
  readonly id: string
  readonly workspaceId: string
  readonly name: string
  readonly hostname: string
  readonly workingDirectory: string
  /** The intern-confined key its agent calls inference with (never leaves the process). */
  readonly key: ApiKeyRecord
}

export interface InternRuntimeDeps {
  readonly interns: InternsRepository
  readonly vaults: VaultsRepository
  readonly apiKeys: ApiKeysRepository
  readonly internService: InternService
  readonly vaultService: VaultService
  readonly changeBus: ChangeBus
  readonly clock: Clock
  readonly dataDir: string
  readonly organizationId: string
  /** `<name>.<domain>` hostnames; default `interns.localhost`. */
  readonly domain?: string
  readonly pollIntervalMs?: number
  readonly onError: (error: unknown, internId: string) => void
}

export const runtimeKeyName = 'Intern runtime key'
const totalSteps = 4

export function internHostname(name: string, domain: string): string {
  const label =
    name
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 63) || 'intern'
  return `${label}.${domain.toLowerCase().replace(/\.$/, '')}`
}

export class InternRuntime {
  readonly #deps: InternRuntimeDeps
  readonly #running = new Map<string, RunningIntern>()
  #timer: NodeJS.Timeout | null = null
  #unsubscribe: (() => void) | null = null
  #tick: Promise<void> = Promise.resolve()

  constructor(deps: InternRuntimeDeps) {
    this.#deps = deps
  }

  /**
   * Brings running interns back, then works whenever the change bus says an intern was queued,
   * suspended or deleted (on this instance or, with a cross-instance transport, another), and polls
   * every `pollIntervalMs` for anything a missed announcement left.
   */
  async start(): Promise<void> {
    for (const row of await this.#deps.interns.listByStatus(['running'])) {
      await this.#attempt(row.id, async () => void this.#running.set(row.id, await this.#prepare(row)))
    }
    this.#unsubscribe = this.#deps.changeBus.subscribe('intern', () => void this.poke())
    this.#timer = setInterval(() => void this.poke(), this.#deps.pollIntervalMs ?? 500)
    this.#timer.unref()
    await this.poke()
  }

  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer)
    this.#timer = null
    this.#unsubscribe?.()
    this.#unsubscribe = null
    await this.#tick
    this.#running.clear()
  }

  /** The handle of a running intern, or undefined. */
  get(internId: string): RunningIntern | undefined {
    return this.#running.get(internId)
  }

  findByHostname(hostname: string): RunningIntern | undefined {
    return [...this.#running.values()].find((intern) => intern.hostname === hostname)
  }

  /** One pass over the work queue (serialised: a pass never overlaps another). */
  poke(): Promise<void> {
    this.#tick = this.#tick.then(() => this.#pass()).catch((error: unknown) => this.#deps.onError(error, ''))
    return this.#tick
  }

  async #pass(): Promise<void> {
    const rows = await this.#deps.interns.listByStatus(['queued', 'destroying', 'running'])
    const live = new Set(rows.filter((row) => row.status === 'running').map((row) => row.id))
    for (const id of this.#running.keys()) if (!live.has(id)) this.#running.delete(id)
    for (const row of rows) {
      if (row.status === 'queued') await this.#attempt(row.id, () => this.#provision(row))
      if (row.status === 'destroying') await this.#destroy(row)
      if (row.status === 'running' && !this.#running.has(row.id))
        await this.#attempt(row.id, async () => void this.#running.set(row.id, await this.#prepare(row)))
    }
  }

  async #attempt(internId: string, work: () => Promise<void>): Promise<void> {
    try {
      await work()
    } catch (error) {
      this.#deps.onError(error, internId)
      const message = error instanceof Error ? error.message : String(error)
      await this.#deps.internService
        .applyRuntimeEvent(internId, 'runtime_failed', { failureMessage: `provisioning failed: ${message}` })
        .catch(() => undefined)
    }
  }

  async #provision(row: InternRow): Promise<void> {
    const { internService } = this.#deps
    const step = (number: number, label: string) => ({
      step_label: label,
      step_number: number,
      total_steps: totalSteps,
    })
    await internService.applyRuntimeEvent(row.id, 'runtime_started', {
      progress: step(1, 'Creating the working directory'),
    })
    await mkdir(this.#workingDirectory(row.id), { recursive: true, mode: 0o700 })
    await internService.reportProgress(row.id, step(2, 'Opening the vault'))
    if ((await this.#deps.vaults.findVault(row.vault_id)) === undefined)
      throw new Error(`the intern's vault ${row.vault_id} is missing`)
    await this.#deps.vaultService.workspaceVault(row.workspace_id)
    await internService.reportProgress(row.id, step(3, 'Minting the runtime key'))
    await this.#runtimeKey(row)
    await internService.reportProgress(row.id, step(4, 'Assigning the hostname'))
    await this.#deps.interns.update(row.id, {
      hostname: internHostname(row.name, this.#domain()),
      updated_at: this.#deps.clock.now().toISOString(),
    })
    const current = await this.#deps.interns.findById(row.id)
    if (current?.status !== 'provisioning') return
    this.#running.set(row.id, await this.#prepare(current))
    await internService.applyRuntimeEvent(row.id, 'runtime_ready')
  }

  async #prepare(row: InternRow): Promise<RunningIntern> {
    const workingDirectory = this.#workingDirectory(row.id)
    await mkdir(workingDirectory, { recursive: true, mode: 0o700 })
    const hostname = row.hostname ?? internHostname(row.name, this.#domain())
    return {
      id: row.id,
      workspaceId: row.workspace_id,
      name: row.name,
      hostname,
      workingDirectory,
      key: await this.#runtimeKey(row),
    }
  }

  async #runtimeKey(row: InternRow): Promise<ApiKeyRecord> {
    const keys = await this.#deps.apiKeys.list({ workspaceId: row.workspace_id, kinds: ['intern'] })
    const existing = keys.find((key) => key.internId === row.id && key.name === runtimeKeyName)
    if (existing !== undefined) return existing
    const plaintext = generateKeySecret()
    const key = await this.#deps.apiKeys.insert({
      hash: hashKeySecret(plaintext),
      kind: 'intern',
      name: runtimeKeyName,
      label: labelKeySecret(plaintext),
      organizationId: this.#deps.organizationId,
      workspaceId: row.workspace_id,
      internId: row.id,
      createdAt: this.#deps.clock.now().toISOString(),
    })
    this.#deps.changeBus.publish('api_key', key.hash)
    return key
  }

  async #destroy(row: InternRow): Promise<void> {
    this.#running.delete(row.id)
    try {
      await rm(this.#workingDirectory(row.id), { recursive: true, force: true })
      const keys = await this.#deps.apiKeys.list({
        workspaceId: row.workspace_id,
        kinds: ['intern'],
        includeDisabled: true,
      })
      for (const key of keys.filter((candidate) => candidate.internId === row.id)) {
        await this.#deps.apiKeys.delete(key.hash)
        this.#deps.changeBus.publish('api_key', key.hash)
      }
      await this.#deps.vaults.transaction(async (transaction) => {
        await this.#deps.interns.delete(row.id, transaction)
        await this.#deps.vaults.deleteVault(row.vault_id, transaction)
      })
    } catch (error) {
      this.#deps.onError(error, row.id)
      const message = error instanceof Error ? error.message : String(error)
      await this.#deps.internService
        .applyRuntimeEvent(row.id, 'runtime_destroy_failed', { failureMessage: `teardown failed: ${message}` })
        .catch(() => undefined)
    }
  }

  #workingDirectory(internId: string): string {
    return join(this.#deps.dataDir, 'interns', internId)
  }

  #domain(): string {
    return this.#deps.domain ?? 'interns.localhost'
  }
}
