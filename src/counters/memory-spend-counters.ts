// Spend counters in one process's memory (the single-node default). Every operation runs to completion
// synchronously, so each is atomic. Nothing runs on a timer: each operation first sweeps lapsed leases,
// forgets finished reservations past retention and (at most once a minute) drops expired scopes.

import type { Clock } from '../domain/clock.ts'
import { assertValidAmount, assertValidId, assertValidScopes, defaultLeaseMs } from './spend-counters.ts'
import type {
  RecordRequest,
  ReservationOutcome,
  ReservationState,
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

interface Reservation {
  state: ReservationState
  readonly amount: bigint
  readonly scopes: readonly ScopeRef[]
  readonly leaseExpiresAt: number
  settledAmount: bigint
}

const SCOPE_SWEEP_INTERVAL_MS = 60_000
const noScopes: readonly ScopeRef[] = Object.freeze([])

/**
 * How long this engine remembers finished reservations: one process settles its own reservations once,
 * so the memory only guards against a repeat within the same burst of work. Kept short because every
 * request leaves one entry (at 2,000 requests/s, two minutes is ~240,000 small entries).
 */
export const defaultMemoryRetentionMs = 2 * 60_000

export class MemorySpendCounters implements SpendCounters {
  readonly #clock: Clock
  readonly #leaseMs: number
  readonly #retentionMs: number
  readonly #scopes = new Map<string, ScopeEntry>()
  readonly #reservations = new Map<string, Reservation>()
  /** Held reservations in lease order (leases have one length, so insertion order is expiry order). */
  readonly #held = new Map<string, Reservation>()
  /** Finished reservation ids and record ids, in the order they may be forgotten, with the time. */
  readonly #forgetReservations = new Map<string, number>()
  readonly #records = new Map<string, number>()
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
      settledAmount: 0n,
    }
    this.#reservations.set(request.reservationId, reservation)
    this.#held.set(request.reservationId, reservation)
    return { kind: 'admitted' }
  }

  async settle(reservationId: string, actualNano: bigint): Promise<ReservationOutcome> {
    assertValidAmount(actualNano, 'actualNano')
    const now = this.#sweep()
    const reservation = this.#reservations.get(reservationId)
    if (reservation === undefined) return { kind: 'unknown' }
    if (reservation.state === 'settled') return { kind: 'settled', amountNano: reservation.settledAmount }
    if (reservation.state === 'released') return { kind: 'released' }
    if (reservation.state === 'held') this.#dropHold(reservation, now)
    for (const scope of reservation.scopes) this.#entry(scope, now).spent += actualNano
    reservation.state = 'settled'
    reservation.settledAmount = actualNano
    this.#finish(reservationId, now)
    return { kind: 'settled', amountNano: actualNano }
  }

  async release(reservationId: string): Promise<ReservationOutcome> {
    const now = this.#sweep()
    const reservation = this.#reservations.get(reservationId)
    if (reservation === undefined) return { kind: 'unknown' }
    if (reservation.state === 'settled') return { kind: 'settled', amountNano: reservation.settledAmount }
    if (reservation.state === 'held') this.#dropHold(reservation, now)
    if (reservation.state !== 'released') {
      reservation.state = 'released'
      this.#finish(reservationId, now)
    }
    return { kind: 'released' }
  }

  async record(request: RecordRequest): Promise<{ readonly recorded: boolean }> {
    assertValidId(request.id, 'id')
    assertValidScopes(request.scopes)
    assertValidAmount(request.amountNano, 'amountNano')
    const now = this.#sweep()
    if (this.#records.has(request.id)) return { recorded: false }
    for (const scope of request.scopes) this.#entry(scope, now).spent += request.amountNano
    this.#records.set(request.id, now + this.#retentionMs)
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

  /**
   * Marks a reservation finished: no longer held, forgotten after the retention period. A settled or
   * released one keeps only its outcome (its scope ids are most of its memory); an expired one keeps
   * its scopes, since a late settle still records the spend on them.
   */
  #finish(reservationId: string, now: number): void {
    const reservation = this.#reservations.get(reservationId)
    if (reservation !== undefined && reservation.state !== 'expired' && reservation.state !== 'held') {
      this.#reservations.set(reservationId, { state: reservation.state, amount: 0n, scopes: noScopes, leaseExpiresAt: 0, settledAmount: reservation.settledAmount })
    }
    this.#held.delete(reservationId)
    this.#forgetReservations.delete(reservationId)
    this.#forgetReservations.set(reservationId, now + this.#retentionMs)
  }

  #sweep(): number {
    const now = this.#clock.now().getTime()
    for (const [id, reservation] of this.#held) {
      if (reservation.leaseExpiresAt > now) break
      this.#dropHold(reservation, now)
      reservation.state = 'expired'
      this.#finish(id, now)
    }
    for (const [id, forgetAt] of this.#forgetReservations) {
      if (forgetAt > now) break
      this.#forgetReservations.delete(id)
      this.#reservations.delete(id)
    }
    for (const [id, forgetAt] of this.#records) {
      if (forgetAt > now) break
      this.#records.delete(id)
    }
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
