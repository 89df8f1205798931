// Guardrails and their assignments held in memory, so the inference path resolves a request's rules
// without reading the store. Every change to a guardrail or its assignments is announced on the change
// bus under 'guardrail' with the guardrail id; the cache then re-reads that guardrail and its holders.
// Refreshes and whole reloads run in turn (in-turn.ts).
import type { ChangeBus } from '../events/change-bus.ts'
import { InTurn } from '../events/in-turn.ts'
import type { GuardrailsRepository } from '../store/repositories/guardrails-repository.ts'
import type { GuardrailAssignmentsRepository } from '../store/repositories/guardrail-assignments-repository.ts'
import { defaultGuardrailId } from './default-guardrail-id.ts'
import type { GuardrailRecord } from '../domain/guardrail-record.ts'
import { resolveEffectiveRules, type EffectiveRules } from './effective-rules.ts'

/** What the cache needs to know about the caller's key. */
export interface GuardedKey {
  readonly hash: string
  readonly workspaceId: string
  readonly creatorUserId: string | null
}

export class GuardrailCache {
  readonly #guardrails = new Map<string, GuardrailRecord>()
  readonly #byKey = new Map<string, string>()
  readonly #byMember = new Map<string, string>()
  /** Resolved rules per key hash, dropped whenever any guardrail or assignment changes. */
  readonly #rulesByKey = new Map<string, { readonly key: GuardedKey; readonly rules: EffectiveRules }>()
  readonly #repository: GuardrailsRepository
  readonly #assignments: GuardrailAssignmentsRepository
  readonly #turns = new InTurn()

  constructor(guardrails: GuardrailsRepository, assignments: GuardrailAssignmentsRepository, bus: ChangeBus) {
    this.#repository = guardrails
    this.#assignments = assignments
    bus.subscribe('guardrail', (id) => this.#turns.run(() => this.#refresh(id)).catch(() => undefined))
  }

  /** Reads every guardrail and assignment (at start, and periodically across instances). */
  load(): Promise<void> {
    return this.#turns.run(() => this.#loadAll())
  }

  async #loadAll(): Promise<void> {
    const { rows } = await this.#repository.list()
    const holders = await this.#assignments.holders()
    this.#rulesByKey.clear()
    this.#guardrails.clear()
    this.#byKey.clear()
    this.#byMember.clear()
    for (const guardrail of rows) this.#guardrails.set(guardrail.id, guardrail)
    for (const row of holders.keys) this.#byKey.set(row.key_hash, row.guardrail_id)
    for (const row of holders.members) this.#byMember.set(row.user_id, row.guardrail_id)
  }

  /** Re-reads one guardrail and who holds it (a deleted guardrail disappears with its assignments). */
  async #refresh(id: string): Promise<void> {
    const guardrail = await this.#repository.find(id)
    const holders = await this.#assignments.holders(id)
    this.#rulesByKey.clear()
    for (const [hash, guardrailId] of this.#byKey) if (guardrailId === id) this.#byKey.delete(hash)
    for (const [userId, guardrailId] of this.#byMember) if (guardrailId === id) this.#byMember.delete(userId)
    if (guardrail === undefined) {
      this.#guardrails.delete(id)
      return
    }
    this.#guardrails.set(id, guardrail)
    for (const row of holders.keys) this.#byKey.set(row.key_hash, id)
    for (const row of holders.members) this.#byMember.set(row.user_id, id)
  }

  /** Resolves once every refresh announced so far has been applied (tests and shutdown use it). */
  settled(): Promise<void> {
    return this.#turns.settled()
  }

  get(id: string): GuardrailRecord | undefined {
    return this.#guardrails.get(id)
  }

  guardrailOfKey(hash: string): GuardrailRecord | undefined {
    const id = this.#byKey.get(hash)
    return id === undefined ? undefined : this.#guardrails.get(id)
  }

  guardrailOfMember(userId: string): GuardrailRecord | undefined {
    const id = this.#byMember.get(userId)
    return id === undefined ? undefined : this.#guardrails.get(id)
  }

  /** The rules of a request made with this key: its guardrail, its creator's and the workspace default. */
  effectiveRulesFor(key: GuardedKey): EffectiveRules {
    const known = this.#rulesByKey.get(key.hash)
    if (
      known !== undefined &&
      known.key.workspaceId === key.workspaceId &&
      known.key.creatorUserId === key.creatorUserId
    )
      return known.rules
    const rules = resolveEffectiveRules({
      key: this.guardrailOfKey(key.hash),
      member: key.creatorUserId === null ? undefined : this.guardrailOfMember(key.creatorUserId),
      workspaceDefault: this.#guardrails.get(defaultGuardrailId(key.workspaceId)),
    })
    this.#rulesByKey.set(key.hash, {
      key: { hash: key.hash, workspaceId: key.workspaceId, creatorUserId: key.creatorUserId },
      rules,
    })
    return rules
  }
}
