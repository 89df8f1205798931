// What the inference pipeline calls around every upstream attempt: reserve the worst case against every
// scope that limits the call (key limit, budgets, credits) -> settle the actual cost (or release).
// Settling bills at most what was reserved (`splitCharge`): a provider's usage past the reservation is
// returned as unbilled excess and summed for the metric, never charged to a scope. It is idempotent per
// generation id + attempt and queues one ledger row, written off the response path by the LedgerWriter.
import type { Clock } from '../domain/clock.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { LimitedScope, SpendCounters } from '../counters/spend-counters.ts'
import type { LedgerRow } from '../store/repositories/ledger-repository.ts'
import type { LedgerWriter } from './ledger-writer.ts'
import type { CreditBalance } from './credit-balance.ts'
import { planReservation } from './reservation-plan.ts'
import { keyLimitSettings } from './key-limit-settings.ts'
import { refusalError, type OutputAllowance } from './refusal-message.ts'
import { splitCharge, type Charge } from './split-charge.ts'
import { isoTime } from '../domain/iso-time.ts'

export interface ReserveInput {
  readonly key: ApiKeyRecord
  readonly generationId: string
  /** 1 for the first upstream attempt, then 2, 3, ... for fallbacks and retries. */
  readonly attempt: number
  /** The most this attempt can cost, nano-dollars. */
  readonly worstCaseNano: bigint
  readonly isByok: boolean
  /** Guardrail or workspace budgets, already windowed (see `windowedScope`). */
  readonly budgets?: readonly LimitedScope[]
  /** The output tokens the worst case assumes, so a refusal can say how many the limit affords. */
  readonly output?: OutputAllowance
}

export interface Reservation {
  /** `<generationId>:<attempt>`: the counters' reservation id and the ledger row id. */
  readonly id: string
  readonly generationId: string
  readonly attempt: number
  readonly keyHash: string
  readonly workspaceId: string
  readonly organizationId: string
  readonly isByok: boolean
  readonly amountNano: bigint
  readonly scopes: readonly LimitedScope[]
  /** When the hold was taken; the ledger row carries it so replays land in the same windows. */
  readonly reservedAt: string
}

export interface SettleInput {
  /** The cost of the provider's reported usage; billed up to the reservation's amount. */
  readonly costNano: bigint
  readonly model: string
  readonly provider: string
  readonly promptTokens?: number
  readonly completionTokens?: number
  readonly reasoningTokens?: number
  readonly cachedTokens?: number
  readonly cacheWriteTokens?: number
  readonly endUser?: string | null
}

export interface AccountingServiceDeps {
  readonly counters: SpendCounters
  readonly clock: Clock
  readonly ledger: LedgerWriter
  readonly credits: CreditBalance
  /** `credits.enforce`: non-BYOK calls must fit under grants - usage. */
  readonly enforceCredits: boolean
}

export function createAccountingService(deps: AccountingServiceDeps) {
  const excess = { totalNano: 0n }
  return {
    /** Holds `worstCaseNano` on every scope at once, or throws payment_required naming the limit. */
    reserve: (input: ReserveInput): Promise<Reservation> => reserve(deps, input, 'limit'),

    /**
     * The same hold for a line of a batch admitted on a positive credit balance: the key limit and budgets
     * still bound it, the credit balance only counts it. An admitted batch runs all its lines; its
     * finalized cost is compared with the balance when its results are read (the spec's batch 402).
     */
    reserveAdmittedBatchLine: (input: ReserveInput): Promise<Reservation> => reserve(deps, input, 'count'),

    /**
     * Bills the actual cost up to the reservation's amount and queues the ledger row; answers what was
     * billed and what was left unbilled. Repeating it for the same reservation bills nothing more. A
     * reservation the counters no longer know (released, or forgotten) is still billed, through an
     * idempotent record.
     */
    settle: async (reservation: Reservation, input: SettleInput): Promise<Charge> => {
      const charge = await settle(deps, reservation, input)
      excess.totalNano += charge.unbilledExcessNano
      return charge
    },

    /** The provider-reported cost left unbilled since start, over every settlement (nano-dollars). */
    unbilledExcessNano: (): bigint => excess.totalNano,

    /** Drops the hold (the attempt failed before costing anything). */
    release: async (reservation: Reservation): Promise<void> => {
      await deps.counters.release(reservation.id)
    },
  }
}

/** Whether the credit balance limits a hold (`limit`, when credits are enforced) or only counts it. */
type CreditUse = 'limit' | 'count'

async function creditScopes(
  deps: AccountingServiceDeps,
  isByok: boolean,
  use: CreditUse,
): Promise<{ credits: { scopeId: string; totalCreditsNano: bigint } | null; tracking: LimitedScope[] }> {
  const { credits } = deps
  if (isByok) return { credits: null, tracking: [] }
  if (deps.enforceCredits && use === 'limit')
    return { credits: { scopeId: credits.scopeId, totalCreditsNano: await credits.totalCreditsNano() }, tracking: [] }
  return { credits: null, tracking: [{ id: credits.scopeId, limitNano: null }] }
}

async function reserve(deps: AccountingServiceDeps, input: ReserveInput, use: CreditUse): Promise<Reservation> {
  const { counters, clock, credits } = deps
  if (input.worstCaseNano < 0n) throw new RangeError('worstCaseNano may not be negative')
  const { key } = input
  const credit = await creditScopes(deps, input.isByok, use)
  const plan = planReservation({
    keyHash: key.hash,
    key: keyLimitSettings(key),
    isByok: input.isByok,
    credits: credit.credits,
    budgets: [...(input.budgets ?? []), ...credit.tracking],
    clock,
  })
  const id = `${input.generationId}:${input.attempt}`
  const outcome = await counters.reserve({
    reservationId: id,
    scopes: plan.scopes,
    amountNano: input.worstCaseNano,
  })
  if (outcome.kind === 'refused') {
    throw refusalError(outcome, {
      key,
      keyLimitScopeId: plan.keyLimitScopeId,
      creditScopeId: credits.scopeId,
      amountNano: input.worstCaseNano,
      output: input.output,
      clock,
    })
  }
  return {
    id,
    generationId: input.generationId,
    attempt: input.attempt,
    keyHash: key.hash,
    workspaceId: key.workspaceId,
    organizationId: key.organizationId,
    isByok: input.isByok,
    amountNano: input.worstCaseNano,
    scopes: plan.scopes,
    reservedAt: isoTime(clock.now().getTime()),
  }
}

async function settle(deps: AccountingServiceDeps, reservation: Reservation, input: SettleInput): Promise<Charge> {
  if (input.costNano < 0n) throw new RangeError('costNano may not be negative')
  const charge = splitCharge(reservation.amountNano, input.costNano)
  const outcome = await deps.counters.settle(reservation.id, charge.billedNano)
  if (outcome.kind !== 'settled') {
    await deps.counters.record({
      id: `settle:${reservation.id}`,
      scopes: reservation.scopes,
      amountNano: charge.billedNano,
    })
  }
  deps.ledger.enqueue(toLedgerRow(reservation, input, charge.billedNano))
  return charge
}

function toLedgerRow(reservation: Reservation, input: SettleInput, billedNano: bigint): LedgerRow {
  return {
    id: reservation.id,
    generation_id: reservation.generationId,
    attempt: reservation.attempt,
    key_hash: reservation.keyHash,
    workspace_id: reservation.workspaceId,
    organization_id: reservation.organizationId,
    model: input.model,
    provider: input.provider,
    prompt_tokens: input.promptTokens ?? 0,
    completion_tokens: input.completionTokens ?? 0,
    reasoning_tokens: input.reasoningTokens ?? 0,
    cached_tokens: input.cachedTokens ?? 0,
    cache_write_tokens: input.cacheWriteTokens ?? 0,
    cost_nano: billedNano.toString(),
    is_byok: reservation.isByok ? 1 : 0,
    end_user: input.endUser ?? null,
    created_at: reservation.reservedAt,
  }
}

export type AccountingService = ReturnType<typeof createAccountingService>
