// Intern rules: scope (the key's workspace; an intern key sees only its intern), creation, cursor
// listing with a deadline, updates and lifecycle moves through the one transition table.
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { ChangeBus } from '../../events/change-bus.ts'
import type { InternRow, InternsRepository } from '../../store/repositories/interns-repository.ts'
import type { VaultsRepository } from '../../store/repositories/vaults-repository.ts'
import type { VaultService } from '../vault/service.ts'
import type { Caller } from './caller.ts'
import { createIntern } from './create-intern.ts'
import {
  applyInternEvent,
  internStatuses,
  type EventDetail,
  type InternEvent,
  type InternProgress,
  type InternStatus,
} from './intern-lifecycle.ts'
import { decodeKeysetCursor, encodeKeysetCursor } from '../../http/keyset-cursor.ts'
import { lifecycleColumns, lifecycleOf, toIntern } from './to-intern.ts'
import { withDeadline } from './with-deadline.ts'
import type { CreateInternBody, Intern, ListInternsQuery, UpdateInternBody } from './schema.ts'

export interface InternServiceDeps {
  readonly interns: InternsRepository
  readonly vaults: VaultsRepository
  readonly vaultService: VaultService
  readonly clock: Clock
  /** Told ('intern') when a caller queues, suspends or deletes an intern, so the runtime acts at once. */
  readonly changeBus?: Pick<ChangeBus, 'publish'>
  /** GET /interns gives up after this long with 408 (default 10 s). */
  readonly listTimeoutMs?: number
}

const maxStatusValues = 8

export function parseStatusFilter(raw: string | string[] | undefined): InternStatus[] | null {
  if (raw === undefined) return null
  const values = (Array.isArray(raw) ? raw : [raw])
    .flatMap((part) => part.split(','))
    .map((part) => part.trim())
    .filter((part) => part !== '')
  if (values.length === 0) return null
  if (values.length > maxStatusValues)
    throw new GatewayError(
      'invalid_request',
      `status takes at most ${maxStatusValues} comma-separated values; got ${values.length}`,
    )
  const unknown = values.filter((value) => !(internStatuses as readonly string[]).includes(value))
  if (unknown.length > 0)
    throw new GatewayError(
      'invalid_request',
      `Unknown status ${unknown.map((value) => `"${value}"`).join(', ')}; use ${internStatuses.join(', ')}`,
    )
  return [...new Set(values)] as InternStatus[]
}

export function createInternService(deps: InternServiceDeps): InternService {
  return new InternService(deps)
}

/** The intern operations; every method finds the intern in the caller's scope before it acts. */
export class InternService {
  readonly #deps: InternServiceDeps

  constructor(deps: InternServiceDeps) {
    this.#deps = deps
  }

  async create(
    caller: Caller,
    body: CreateInternBody,
    idempotencyKey: string | undefined,
  ): Promise<{ intern: Intern; created: boolean }> {
    const { intern, created } = await createIntern(this.#deps, caller, body, idempotencyKey)
    if (created) this.#deps.changeBus?.publish('intern', intern.id)
    return { intern: toIntern(intern), created }
  }

  async list(
    caller: Caller,
    query: ListInternsQuery,
  ): Promise<{ data: Intern[]; has_more: boolean; next_cursor?: string }> {
    if (query.workspace_id !== undefined && query.workspace_id !== caller.workspaceId) {
      throw new GatewayError('not_found', `Workspace ${query.workspace_id} is not the workspace of this API key`)
    }
    const statuses = parseStatusFilter(query.status)
    const after =
      query.starting_after === undefined
        ? null
        : decodeKeysetCursor(query.starting_after, 'starting_after', /^[0-9a-f-]{36}$/)
    const limit = query.limit ?? 50
    const rows = await withDeadline(
      this.#deps.interns.list({ workspaceId: caller.workspaceId, statuses, after, limit: limit + 1 }),
      this.#deps.listTimeoutMs ?? 10_000,
      'Listing interns',
    )
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    const hasMore = rows.length > limit && last !== undefined
    return {
      data: page.map(toIntern),
      has_more: hasMore,
      ...(hasMore ? { next_cursor: encodeKeysetCursor({ createdAt: last.created_at, id: last.id }) } : {}),
    }
  }

  async get(caller: Caller, internId: string): Promise<Intern> {
    return toIntern(await this.#find(caller, internId))
  }

  async update(caller: Caller, internId: string, body: UpdateInternBody): Promise<Intern> {
    const { interns, clock } = this.#deps
    const row = await this.#find(caller, internId)
    if (
      body.name !== undefined &&
      body.name !== row.name &&
      (await interns.findByName(row.workspace_id, body.name)) !== undefined
    ) {
      throw new GatewayError(
        'conflict',
        `An intern named "${body.name}" already exists in this workspace; choose another name`,
      )
    }
    const changes: Partial<InternRow> = { updated_at: clock.now().toISOString() }
    if (body.name !== undefined) changes.name = body.name
    if (body.description !== undefined) changes.description = body.description
    if (body.instructions !== undefined) changes.instructions = body.instructions
    if (body.model !== undefined) changes.model = body.model
    await interns.update(row.id, changes)
    return toIntern({ ...row, ...changes })
  }

  async remove(caller: Caller, internId: string, acknowledgeWorkspaceLoss: boolean): Promise<void> {
    const row = await this.#find(caller, internId)
    if (
      row.status === 'destroy_failed' &&
      (row.last_failure_message ?? '').includes('workspace_archive_failed') &&
      !acknowledgeWorkspaceLoss
    ) {
      throw new GatewayError(
        'conflict',
        'The intern workspace could not be archived (workspace_archive_failed); send {"acknowledge_workspace_loss": true} to delete it anyway',
      )
    }
    await this.#move(row, 'destroy')
  }

  async provision(caller: Caller, internId: string): Promise<void> {
    await this.#move(await this.#find(caller, internId), 'provision')
  }

  async suspend(caller: Caller, internId: string): Promise<void> {
    await this.#move(await this.#find(caller, internId), 'suspend')
  }

  /** For the intern runtime: a provisioning step (no state change); ignored unless the intern is provisioning. */
  async reportProgress(internId: string, progress: InternProgress): Promise<void> {
    const { interns, clock } = this.#deps
    const row = await interns.findById(internId)
    if (row?.status !== 'provisioning') return
    await interns.update(internId, { progress: JSON.stringify(progress), updated_at: clock.now().toISOString() })
  }

  /** For the intern runtime: report a runtime event through the same transition table. */
  async applyRuntimeEvent(
    internId: string,
    event: Extract<InternEvent, `runtime_${string}`>,
    detail?: EventDetail,
  ): Promise<Intern> {
    const row = await this.#deps.interns.findById(internId)
    if (row === undefined) throw new GatewayError('not_found', `No intern ${internId}`)
    return toIntern(await this.#move(row, event, detail))
  }

  async #find(caller: Caller, internId: string): Promise<InternRow> {
    const row = await this.#deps.interns.findById(internId)
    if (
      row === undefined ||
      row.workspace_id !== caller.workspaceId ||
      (caller.isInternKey && caller.internId !== internId)
    ) {
      throw new GatewayError('not_found', `No intern ${internId} in this key's workspace`)
    }
    return row
  }

  async #move(row: InternRow, event: InternEvent, detail?: EventDetail): Promise<InternRow> {
    const next = {
      ...row,
      ...lifecycleColumns(applyInternEvent(lifecycleOf(row), event, detail)),
      updated_at: this.#deps.clock.now().toISOString(),
    }
    await this.#deps.interns.update(row.id, {
      status: next.status,
      progress: next.progress,
      last_failure_message: next.last_failure_message,
      updated_at: next.updated_at,
    })
    if (!event.startsWith('runtime_')) this.#deps.changeBus?.publish('intern', row.id)
    return next
  }
}
