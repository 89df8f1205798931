// The organization's credit grants total, held in memory so a reservation reads no store. A grant made
// through this instance invalidates it at once (change bus, topic 'organization'); grants made elsewhere
// are picked up within `maxAgeMs`. Spend against the credits is the counter `creditScopeId`.
import type { Clock } from '../domain/clock.ts'
import type { ChangeBus } from '../events/change-bus.ts'
import type { CreditGrantsRepository } from '../store/repositories/credit-grants-repository.ts'

/** The lifetime counter of the organization's non-BYOK spend: what the credit balance is checked against. */
export function creditScopeId(organizationId: string): string {
  return `org:${organizationId}:credits:lifetime`
}

export interface CreditBalanceOptions {
  readonly grants: CreditGrantsRepository
  readonly organizationId: string
  readonly clock: Clock
  readonly bus: ChangeBus
  readonly maxAgeMs?: number
}

export class CreditBalance {
  readonly #options: CreditBalanceOptions
  #cached: { readonly totalNano: bigint; readonly readAt: number } | null = null

  constructor(options: CreditBalanceOptions) {
    this.#options = options
    options.bus.subscribe('organization', () => this.invalidate())
  }

  get scopeId(): string {
    return creditScopeId(this.#options.organizationId)
  }

  async totalCreditsNano(): Promise<bigint> {
    const now = this.#options.clock.now().getTime()
    const cached = this.#cached
    if (cached !== null && now - cached.readAt < (this.#options.maxAgeMs ?? 5000)) return cached.totalNano
    const totalNano = await this.#options.grants.totalNano(this.#options.organizationId)
    this.#cached = { totalNano, readAt: now }
    return totalNano
  }

  invalidate(): void {
    this.#cached = null
  }
}
