// Credits: grants add to the organization's balance; usage is the organization's non-BYOK spend counter
// (rebuildable from the ledger). With `credits.enforce`, inference needs grants - usage to cover it.
import { randomUUID } from 'node:crypto'
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import { nanoToUsd, usdToNano } from '../../domain/money.ts'
import type { ChangeBus } from '../../events/change-bus.ts'
import type { SpendCounters } from '../../counters/spend-counters.ts'
import type { CreditGrantsRepository } from '../../store/repositories/credit-grants-repository.ts'
import { creditScopeId } from '../../accounting/credit-balance.ts'
import type { CreditGrantBody, Credits } from './schema.ts'

export interface CreditsServiceDeps {
  readonly grants: CreditGrantsRepository
  readonly counters: SpendCounters
  readonly clock: Clock
  readonly bus: ChangeBus
  readonly organizationId: string
}

export function createCreditsService(deps: CreditsServiceDeps) {
  return {
    async totals(): Promise<Credits> {
      const scopeId = creditScopeId(deps.organizationId)
      const [granted, balances] = await Promise.all([
        deps.grants.totalNano(deps.organizationId),
        deps.counters.read([scopeId]),
      ])
      return { total_credits: nanoToUsd(granted), total_usage: nanoToUsd(balances.get(scopeId)?.spentNano ?? 0n) }
    },

    async grant(body: CreditGrantBody): Promise<Credits> {
      const amountNano = usdToNano(body.amount)
      if (amountNano <= 0n)
        throw new GatewayError(
          'invalid_request',
          `amount ${body.amount} is less than one nano-dollar: grant a positive USD amount such as 10`,
        )
      await deps.grants.insert({
        id: randomUUID(),
        organization_id: deps.organizationId,
        amount_nano: amountNano.toString(),
        note: body.note ?? null,
        created_at: deps.clock.now().toISOString(),
      })
      deps.bus.publish('organization', deps.organizationId)
      return this.totals()
    },
  }
}

export type CreditsService = ReturnType<typeof createCreditsService>
