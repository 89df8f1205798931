// Reserve -> attempt -> settle or release, exactly once: the worst case is held on every scope that
// limits the call (key limit, credits, guardrail and workspace budgets) before any upstream is called;
// the attempt reports its priced usage to the meter, which answers what will be billed (at most the
// reservation, so the answer shows the cost actually billed); afterwards the reservation is settled
// when something was charged and released otherwise, whether the attempt returned or threw. Every
// model call of every entry point (and every server-tool step) is one metered call.
import type { SettleInput } from '../../accounting/accounting-service.ts'
import type { OutputAllowance } from '../../accounting/refusal-message.ts'
import { splitCharge, type Charge } from '../../accounting/split-charge.ts'
import type { LimitedScope } from '../../counters/spend-counters.ts'
import type { CallPolicy, SpendReservation } from './call-policy.ts'
import type { CallRequest } from './call-request.ts'
import type { FastifyBaseLogger } from 'fastify'

export interface SpendRequest {
  /** 1 for a call; the step number for a server-tool loop step (the reservation is `<generation>:<attempt>`). */
  readonly attempt: number
  /** The most the call can cost, nano-dollars. */
  readonly worstCaseNano: bigint
  readonly budgets: readonly LimitedScope[]
  /** The output tokens the worst case assumes, so a refusal can say how many the limit affords. */
  readonly output?: OutputAllowance
}

/** What an attempt learned it costs; the core settles it after the attempt. */
export class Meter {
  #bill: SettleInput | null = null

  constructor(readonly reservedNano: bigint) {}

  /** Records the priced usage to settle; answers what is billed (at most the reservation) and the excess. */
  charge(bill: SettleInput): Charge {
    this.#bill = bill
    return splitCharge(this.reservedNano, bill.costNano)
  }

  get bill(): SettleInput | null {
    return this.#bill
  }
}

export interface MeterDeps {
  readonly logger: FastifyBaseLogger
  readonly policy: Pick<CallPolicy, 'accounting'>
}

export async function meteredCall<T>(
  request: Pick<CallRequest, 'key' | 'generationId'>,
  spend: SpendRequest,
  deps: MeterDeps,
  attempt: (meter: Meter) => Promise<T>,
): Promise<T> {
  const { accounting } = deps.policy
  const reservation = await accounting.reserve({
    key: request.key,
    generationId: request.generationId,
    attempt: spend.attempt,
    worstCaseNano: spend.worstCaseNano,
    isByok: false,
    budgets: spend.budgets,
    ...(spend.output === undefined ? {} : { output: spend.output }),
  })
  const meter = new Meter(reservation.amountNano)
  try {
    return await attempt(meter)
  } finally {
    await closeReservation(reservation, meter.bill, deps)
  }
}

/** Settles what the attempt charged, or releases the hold when it charged nothing; a failure is logged. */
async function closeReservation(
  reservation: SpendReservation,
  bill: SettleInput | null,
  deps: MeterDeps,
): Promise<void> {
  try {
    if (bill !== null && bill.costNano > 0n) await deps.policy.accounting.settle(reservation, bill)
    else await deps.policy.accounting.release(reservation)
  } catch (error) {
    deps.logger.error({ err: error, generationId: reservation.generationId }, 'could not settle a reservation')
  }
}
