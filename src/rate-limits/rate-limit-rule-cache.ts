// The API-set rate-limit rules held in memory, so admitting a call reads no store. Loaded at start;
// every 'rate_limit' event on the change bus re-reads that one rule (a deleted rule disappears), and
// instances sharing a store also reload the whole set periodically. Reloads and refreshes run in turn.
import type { ChangeBus } from '../events/change-bus.ts'
import { InTurn } from '../events/in-turn.ts'
import type { RateLimitRule } from '../domain/rate-limit-rule.ts'
import type { RateLimitRulesRepository } from '../store/repositories/rate-limit-rules-repository.ts'

/** What the cache needs to know about the caller's key. */
export interface LimitedKey {
  readonly hash: string
  readonly workspaceId: string
}

const none: readonly RateLimitRule[] = []

export class RateLimitRuleCache {
  readonly #rules = new Map<string, RateLimitRule>()
  /** Rules per `scope:target`, then per model ('' for every model). */
  readonly #byTarget = new Map<string, Map<string, RateLimitRule>>()
  readonly #repository: RateLimitRulesRepository
  readonly #turns = new InTurn()

  constructor(repository: RateLimitRulesRepository, bus: ChangeBus) {
    this.#repository = repository
    bus.subscribe('rate_limit', (id) => this.#turns.run(() => this.#refresh(id)).catch(() => undefined))
  }

  load(): Promise<void> {
    return this.#turns.run(async () => {
      const rules = await this.#repository.listAll()
      this.#rules.clear()
      this.#byTarget.clear()
      for (const rule of rules) this.#add(rule)
    })
  }

  /** Resolves once every refresh announced so far has been applied. */
  settled(): Promise<void> {
    return this.#turns.settled()
  }

  /** The rules a key's call to `model` counts against: the key's and its workspace's, all-model and per-model. */
  rulesFor(key: LimitedKey, model: string): readonly RateLimitRule[] {
    if (this.#rules.size === 0) return none
    const found: RateLimitRule[] = []
    for (const target of [`key:${key.hash}`, `workspace:${key.workspaceId}`]) {
      const byModel = this.#byTarget.get(target)
      if (byModel === undefined) continue
      const all = byModel.get('')
      const forModel = byModel.get(model)
      if (all !== undefined) found.push(all)
      if (forModel !== undefined) found.push(forModel)
    }
    return found
  }

  /** The rules set on one key or workspace (for the key object and the console). */
  rulesOf(scope: RateLimitRule['scope'], target: string): RateLimitRule[] {
    return [...(this.#byTarget.get(`${scope}:${target}`)?.values() ?? [])]
  }

  async #refresh(id: string): Promise<void> {
    const rule = await this.#repository.find(id)
    this.#remove(id)
    if (rule !== undefined) this.#add(rule)
  }

  #add(rule: RateLimitRule): void {
    this.#rules.set(rule.id, rule)
    const target = `${rule.scope}:${rule.target}`
    const byModel = this.#byTarget.get(target) ?? new Map<string, RateLimitRule>()
    byModel.set(rule.model ?? '', rule)
    this.#byTarget.set(target, byModel)
  }

  #remove(id: string): void {
    const rule = this.#rules.get(id)
    if (rule === undefined) return
    this.#rules.delete(id)
    const target = `${rule.scope}:${rule.target}`
    const byModel = this.#byTarget.get(target)
    byModel?.delete(rule.model ?? '')
    if (byModel?.size === 0) this.#byTarget.delete(target)
  }
}
