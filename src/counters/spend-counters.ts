// Spend counters: holds and spend per scope (a key's limit window, a budget, a credit balance), in
// integer nano-dollars. Every inference call reserves its worst-case cost against all of its scopes
// at once, then settles to the actual cost or releases. Two engines implement this contract: memory
// (single node) and Redis (shared by many nodes); `spend-counters.contract.ts` runs on both.
//
// Guarantee. A scope admits a reservation only when spent + reserved + amount <= limit. Settling
// replaces a hold h by the actual amount a, so a scope's spent + reserved can exceed its limit only by
// the sum of (a - h) over settlements with a > h, where h is the hold still in place when it settled
// (the reserved amount, or 0 when the lease had lapsed before the settlement). In particular, when
// every request settles within its reservation and lease, spent never exceeds the limit.

/** A counter to add spend to. Ids embed their window (`key:<hash>:usage:d:2026-11-22`). */
export interface ScopeRef {
  readonly id: string
  /** Expire the counter this many seconds after its last write (its window's end plus a margin). */
  readonly ttlSeconds?: number
}

/** A counter a reservation must fit under; `limitNano: null` means unlimited but still tracked. */
export interface LimitedScope extends ScopeRef {
  readonly limitNano: bigint | null
}

export interface ReserveRequest {
  /** Unique per generation and attempt; a repeat never takes a second hold. */
  readonly reservationId: string
  readonly scopes: readonly LimitedScope[]
  readonly amountNano: bigint
}

export type ReserveOutcome =
  | { readonly kind: 'admitted' }
  /** The first scope (in request order) that could not take the hold; nothing was held anywhere. */
  | {
      readonly kind: 'refused'
      readonly scopeId: string
      readonly limitNano: bigint
      readonly spentNano: bigint
      readonly reservedNano: bigint
    }
  /** The id is already known; no new hold was taken. */
  | { readonly kind: 'duplicate'; readonly state: ReservationState }

/**
 * held: the hold is in place. settled: spend recorded. released: dropped by `release`. expired: the
 * lease lapsed and the hold was dropped; a late `settle` still records the spend.
 */
export type ReservationState = 'held' | 'settled' | 'released' | 'expired'

/** What a reservation ended as; repeated settle/release calls return the first outcome. */
export type ReservationOutcome =
  | { readonly kind: 'settled'; readonly amountNano: bigint }
  | { readonly kind: 'released' }
  /** No such reservation (never made, refused, or forgotten after the retention period). */
  | { readonly kind: 'unknown' }

export interface RecordRequest {
  /** Idempotency id; a repeat adds nothing. Separate from reservation ids. */
  readonly id: string
  readonly scopes: readonly ScopeRef[]
  readonly amountNano: bigint
}

export interface ScopeBalance {
  readonly spentNano: bigint
  readonly reservedNano: bigint
}

export interface SpendCounters {
  reserve(request: ReserveRequest): Promise<ReserveOutcome>
  /** Moves the hold to spent at `actualNano` (which may exceed the hold; never refused). */
  settle(reservationId: string, actualNano: bigint): Promise<ReservationOutcome>
  release(reservationId: string): Promise<ReservationOutcome>
  /** Adds spend without a reservation (usage that arrives later); ignores limits. */
  record(request: RecordRequest): Promise<{ readonly recorded: boolean }>
  /** Balances per scope id; an unknown scope reads as zero. */
  read(scopeIds: readonly string[]): Promise<ReadonlyMap<string, ScopeBalance>>
}

export interface SpendCountersTiming {
  /** A hold not settled or released within this many ms is dropped. Default 15 minutes. */
  readonly leaseMs?: number
  /**
   * How long finished reservations and record ids are remembered for idempotency. Default 1 hour for
   * shared engines (longer than a batch item's lease, after which another instance may re-run it) and
   * 2 minutes in memory (see defaultMemoryRetentionMs). Every request leaves one entry for this long.
   */
  readonly retentionMs?: number
}

export const defaultLeaseMs = 15 * 60_000
export const defaultRetentionMs = 60 * 60_000

/** Rejects malformed requests the same way on every engine (programming errors, not refusals). */
export function assertValidScopes(scopes: readonly ScopeRef[]): void {
  const seen = new Set<string>()
  for (const scope of scopes) {
    if (scope.id === '') throw new RangeError('A scope id may not be empty')
    if (seen.has(scope.id)) throw new RangeError(`Scope ${scope.id} appears twice in one request`)
    seen.add(scope.id)
    if (scope.ttlSeconds !== undefined && !(Number.isSafeInteger(scope.ttlSeconds) && scope.ttlSeconds > 0)) {
      throw new RangeError(`Scope ${scope.id} has ttlSeconds ${scope.ttlSeconds}; expected a positive integer`)
    }
  }
}

export function assertValidAmount(amountNano: bigint, name: string): void {
  if (amountNano < 0n) throw new RangeError(`${name} may not be negative, got ${amountNano}`)
}

export function assertValidId(id: string, name: string): void {
  if (id === '') throw new RangeError(`${name} may not be empty`)
}
