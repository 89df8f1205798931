// Spend counters in one process's memory (the single-node default). Every operation runs to completion
// synchronously, so each is atomic. Nothing runs on a timer: each operation first sweeps lapsed leases,
// forgets finished reservations past retention and (at most once a minute) drops expired scopes.

import type { Clock } from '../domain/clock.ts'
import { ForgetQueue } from './forget-queue.ts'
import { assertValidAmount, assertValidId, assertValidScopes, defaultLeaseMs } from './spend-counters.ts'
import type {
  RecordRequest,
  ReservationOutcome,
  ReserveOutcome,
  ReserveRequest,
  ScopeBalance,
  ScopeRef,
  SpendCounters,
  SpendCountersTiming,
} from './spend-counters.ts'

interface ScopeEntry {
  spent: bigint
  reserved: bigint
  /** Epoch ms at which the entry is gone; null = never. */
  expiresAt: number | null
}

/** A reservation not finished yet: held, or expired (its scopes kept, since a late settle still counts). */
interface Reservation {
  state: 'held' | 'expired'
  readonly amount: bigint
  readonly scopes: readonly ScopeRef[]
  readonly leaseExpiresAt: number
}

/**
 * A settled or released reservation, kept with no object of its own: the settled amount (a number
 * while it is a safe integer, a bigint past that), or `releasedOutcome`.
 */
type Outcome = number | bigint
const releasedOutcome = -1
const largestSafeAmount = BigInt(Number.MAX_SAFE_INTEGER)

function toOutcome(settledNano: bigint): Outcome {
  return settledNano <= largestSafeAmount ? Number(settledNano) : settledNano
}

function outcomeOf(outcome: Outcome): ReservationOutcome {
  return outcome === releasedOutcome ? { kind: 'released' } : { kind: 'settled', amountNano: BigInt(outcome) }
}

const SCOPE_SWEEP_INTERVAL_MS = 60_000

/**
 * How long this engine remembers finished reservations: one process settles its own reservations once,
 * so the memory only guards against a repeat within the same burst of work. Kept short because every
 * request leaves one entry (at 2,000 requests/s, two minutes is ~240,000 entries: an id and a number each).
 */
export const defaultMemoryRetentionMs = 2 * 60_000

export class MemorySpendCounters implements SpendCounters {
  readonly #clock: Clock
  readonly #leaseMs: number
  readonly #retentionMs: number
  readonly #scopes = new Map<string, ScopeEntry>()
  /** Held and expired reservations. */
  readonly #reservations = new Map<string, Reservation>()
  /** Held reservations in lease order (leases have one length, so insertion order is expiry order). */
  readonly #held = new Map<string, Reservation>()
  /** Expired reservations in the order they may be forgotten, with the time. */
  readonly #forgetExpired = new Map<string, number>()
  /** Settled and released reservations: every request leaves one for the retention period. */
  readonly #outcomes = new Map<string, Outcome>()
  readonly #forgetOutcomes = new ForgetQueue()
  readonly #records = new Set<string>()
  readonly #forgetRecords = new ForgetQueue()
  #lastScopeSweep = Number.NEGATIVE_INFINITY

  constructor(clock: Clock, timing: SpendCountersTiming = {}) {
    this.#clock = clock
    this.#leaseMs = timing.leaseMs ?? defaultLeaseMs
    this.#retentionMs = timing.retentionMs ?? defaultMemoryRetentionMs
  }

  async reserve(request: ReserveRequest): Promise<ReserveOutcome> {
    assertValidId(request.reservationId, 'reservationId')
    assertValidScopes(request.scopes)
    assertValidAmount(request.amountNano, 'amountNano')
    const now = this.#sweep()
    const outcome = this.#outcomes.get(request.reservationId)
    if (outcome !== undefined) return { kind: 'duplicate', state: outcome === releasedOutcome ? 'released' : 'settled' }
    const existing = this.#reservations.get(request.reservationId)
    if (existing !== undefined) return { kind: 'duplicate', state: existing.state }
    for (const scope of request.scopes) {
      const { spentNano, reservedNano } = this.#balance(scope.id, now)
      if (scope.limitNano !== null && spentNano + reservedNano + request.amountNano > scope.limitNano) {
        return { kind: 'refused', scopeId: scope.id, limitNano: scope.limitNano, spentNano, reservedNano }
      }
    }
    for (const scope of request.scopes) this.#entry(scope, now).reserved += request.amountNano
    const reservation: Reservation = {
      state: 'held',
      amount: request.amountNano,
      scopes: request.scopes.map(({ id, ttlSeconds }) => ({ id, ttlSeconds })),
      leaseExpiresAt: now + this.#leaseMs,
    }
    this.#reservations.set(request.reservationId, reservation)
    this.#held.set(request.reservationId, reservation)
    return { kind: 'admitted' }
  }

  async settle(reservationId: string, actualNano: bigint): Promise<ReservationOutcome> {
    assertValidAmount(actualNano, 'actualNano')
    const now = this.#sweep()
    const outcome = this.#outcomes.get(reservationId)
    if (outcome !== undefined) return outcomeOf(outcome)
    const reservation = this.#reservations.get(reservationId)
    if (reservation === undefined) return { kind: 'unknown' }
    if (reservation.state === 'held') this.#dropHold(reservation, now)
    for (const scope of reservation.scopes) this.#entry(scope, now).spent += actualNano
    this.#finish(reservationId, toOutcome(actualNano), now)
    return { kind: 'settled', amountNano: actualNano }
  }

  async release(reservationId: string): Promise<ReservationOutcome> {
    const now = this.#sweep()
    const outcome = this.#outcomes.get(reservationId)
    if (outcome !== undefined) return outcomeOf(outcome)
    const reservation = this.#reservations.get(reservationId)
    if (reservation === undefined) return { kind: 'unknown' }
    if (reservation.state === 'held') this.#dropHold(reservation, now)
    this.#finish(reservationId, releasedOutcome, now)
    return { kind: 'released' }
  }

  async record(request: RecordRequest): Promise<{ readonly recorded: boolean }> {
    assertValidId(request.id, 'id')
    assertValidScopes(request.scopes)
    assertValidAmount(request.amountNano, 'amountNano')
    const now = this.#sweep()
    if (this.#records.has(request.id)) return { recorded: false }
    for (const scope of request.scopes) this.#entry(scope, now).spent += request.amountNano
    this.#records.add(request.id)
    this.#forgetRecords.add(request.id, now + this.#retentionMs)
    return { recorded: true }
  }

  async read(scopeIds: readonly string[]): Promise<ReadonlyMap<string, ScopeBalance>> {
    const now = this.#sweep()
    return new Map(scopeIds.map((id) => [id, this.#balance(id, now)]))
  }

  #balance(id: string, now: number): ScopeBalance {
    const entry = this.#scopes.get(id)
    if (entry === undefined || isExpired(entry, now)) return { spentNano: 0n, reservedNano: 0n }
    return { spentNano: entry.spent, reservedNano: entry.reserved }
  }

  /** The live entry for a scope being written, created if absent, its expiry renewed. */
  #entry(scope: ScopeRef, now: number): ScopeEntry {
    let entry = this.#scopes.get(scope.id)
    if (entry === undefined || isExpired(entry, now)) {
      entry = { spent: 0n, reserved: 0n, expiresAt: null }
      this.#scopes.set(scope.id, entry)
    }
    if (scope.ttlSeconds !== undefined) entry.expiresAt = now + scope.ttlSeconds * 1000
    return entry
  }

  #dropHold(reservation: Reservation, now: number): void {
    for (const scope of reservation.scopes) {
      const entry = this.#scopes.get(scope.id)
      if (entry !== undefined && !isExpired(entry, now)) entry.reserved -= reservation.amount
    }
  }

  /** A settled or released reservation keeps only its outcome, forgotten after the retention period. */
  #finish(reservationId: string, outcome: Outcome, now: number): void {
    this.#reservations.delete(reservationId)
    this.#held.delete(reservationId)
    this.#forgetExpired.delete(reservationId)
    this.#outcomes.set(reservationId, outcome)
    this.#forgetOutcomes.add(reservationId, now + this.#retentionMs)
  }

  #sweep(): number {
    const now = this.#clock.now().getTime()
    for (const [id, reservation] of this.#held) {
      if (reservation.leaseExpiresAt > now) break
      this.#dropHold(reservation, now)
      reservation.state = 'expired'
      this.#held.delete(id)
      this.#forgetExpired.set(id, now + this.#retentionMs)
    }
    for (const [id, forgetAt] of this.#forgetExpired) {
      if (forgetAt > now) break
      this.#forgetExpired.delete(id)
      this.#reservations.delete(id)
    }
    this.#forgetOutcomes.forgetDue(now, this.#outcomes)
    this.#forgetRecords.forgetDue(now, this.#records)
    if (now - this.#lastScopeSweep >= SCOPE_SWEEP_INTERVAL_MS) {
      this.#lastScopeSweep = now
      for (const [id, entry] of this.#scopes) if (isExpired(entry, now)) this.#scopes.delete(id)
    }
    return now
  }
}

function isExpired(entry: ScopeEntry, now: number): boolean {
  return entry.expiresAt !== null && entry.expiresAt <= now
}
