// Spend counters in Redis, shared by every gateway node. Each operation is one Lua script, run with
// EVALSHA (falling back to EVAL once if the server does not know the script): one round-trip, atomic.
// Time comes from the injected clock, so leases lapse the same way on every engine and in tests.
// A Redis failure is reported as `unavailable`: callers fail closed on money.

import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { Clock } from '../domain/clock.ts'
import { GatewayError } from '../domain/errors.ts'
import { readScript, recordScript, releaseScript, reserveScript, settleScript } from './redis-spend-scripts.ts'
import {
  assertValidAmount,
  assertValidId,
  assertValidScopes,
  defaultLeaseMs,
  defaultRetentionMs,
} from './spend-counters.ts'
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

export interface RedisSpendCountersOptions extends SpendCountersTiming {
  /** Prefix of every key; keep a hash tag in it so all keys share one cluster slot. */
  readonly keyPrefix?: string
}

interface Script {
  readonly source: string
  readonly sha: string
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') }
}

const scripts = {
  reserve: script(reserveScript),
  settle: script(settleScript),
  release: script(releaseScript),
  record: script(recordScript),
  read: script(readScript),
} as const

const reservationStates: readonly ReservationState[] = ['held', 'settled', 'released', 'expired']

export class RedisSpendCounters implements SpendCounters {
  readonly #client: Redis
  readonly #clock: Clock
  readonly #prefix: string
  readonly #leaseMs: number
  readonly #retentionMs: number

  constructor(client: Redis, clock: Clock, options: RedisSpendCountersOptions = {}) {
    this.#client = client
    this.#clock = clock
    this.#prefix = options.keyPrefix ?? '{switchyard:spend}:'
    this.#leaseMs = options.leaseMs ?? defaultLeaseMs
    this.#retentionMs = options.retentionMs ?? defaultRetentionMs
  }

  async reserve(request: ReserveRequest): Promise<ReserveOutcome> {
    assertValidId(request.reservationId, 'reservationId')
    assertValidScopes(request.scopes)
    assertValidAmount(request.amountNano, 'amountNano')
    const reply = await this.#run(
      scripts.reserve,
      [
        this.#leasesKey(),
        this.#reservationKey(request.reservationId),
        ...request.scopes.map((scope) => this.#scopeKey(scope.id)),
      ],
      [
        request.reservationId,
        request.amountNano.toString(),
        String(this.#leaseMs),
        scopesJson(request.scopes),
        ...request.scopes.map((scope) => (scope.limitNano === null ? '' : scope.limitNano.toString())),
      ],
    )
    const [kind, first, second, third] = stringsOf(reply)
    if (kind === 'admitted') return { kind: 'admitted' }
    if (kind === 'duplicate' && isReservationState(first)) return { kind: 'duplicate', state: first }
    const scope = request.scopes[Number(first) - 1]
    if (
      kind === 'refused' &&
      scope !== undefined &&
      scope.limitNano !== null &&
      second !== undefined &&
      third !== undefined
    ) {
      return {
        kind: 'refused',
        scopeId: scope.id,
        limitNano: scope.limitNano,
        spentNano: BigInt(second),
        reservedNano: BigInt(third),
      }
    }
    throw unexpectedReply('reserve', reply)
  }

  async settle(reservationId: string, actualNano: bigint): Promise<ReservationOutcome> {
    assertValidAmount(actualNano, 'actualNano')
    const reply = await this.#run(
      scripts.settle,
      [this.#leasesKey(), this.#reservationKey(reservationId)],
      [reservationId, actualNano.toString()],
    )
    return reservationOutcome('settle', reply)
  }

  async release(reservationId: string): Promise<ReservationOutcome> {
    const reply = await this.#run(
      scripts.release,
      [this.#leasesKey(), this.#reservationKey(reservationId)],
      [reservationId],
    )
    return reservationOutcome('release', reply)
  }

  async record(request: RecordRequest): Promise<{ readonly recorded: boolean }> {
    assertValidId(request.id, 'id')
    assertValidScopes(request.scopes)
    assertValidAmount(request.amountNano, 'amountNano')
    const reply = await this.#run(
      scripts.record,
      [
        this.#leasesKey(),
        `${this.#prefix}rec:${request.id}`,
        ...request.scopes.map((scope) => this.#scopeKey(scope.id)),
      ],
      [request.amountNano.toString(), scopesJson(request.scopes)],
    )
    if (reply === 0 || reply === 1) return { recorded: reply === 1 }
    throw unexpectedReply('record', reply)
  }

  async read(scopeIds: readonly string[]): Promise<ReadonlyMap<string, ScopeBalance>> {
    const reply = stringsOf(
      await this.#run(scripts.read, [this.#leasesKey(), ...scopeIds.map((id) => this.#scopeKey(id))], []),
    )
    if (reply.length !== scopeIds.length * 2) throw unexpectedReply('read', reply)
    return new Map(
      scopeIds.map((id, index) => [
        id,
        { spentNano: BigInt(reply[index * 2] ?? ''), reservedNano: BigInt(reply[index * 2 + 1] ?? '') },
      ]),
    )
  }

  /** How many reservations hold a lease that has not lapsed (some gateway is serving). */
  async heldReservations(): Promise<number> {
    return this.#client.zcount(this.#leasesKey(), `(${this.#clock.now().getTime()}`, '+inf')
  }

  /**
   * Deletes these scopes' counters and every remembered `record` id that starts with `recordIdPrefix`,
   * so that a replay can count them again from nothing. Holds and other scopes are untouched.
   */
  async forget(scopeIds: readonly string[], recordIdPrefix: string): Promise<void> {
    for (let start = 0; start < scopeIds.length; start += 500)
      await this.#client.unlink(...scopeIds.slice(start, start + 500).map((id) => this.#scopeKey(id)))
    const pattern = `${globEscaped(`${this.#prefix}rec:${recordIdPrefix}`)}*`
    let cursor = '0'
    do {
      const [next, keys] = await this.#client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000)
      if (keys.length > 0) await this.#client.unlink(...keys)
      cursor = next
    } while (cursor !== '0')
  }

  #leasesKey(): string {
    return `${this.#prefix}leases`
  }

  #reservationKey(id: string): string {
    return `${this.#prefix}r:${id}`
  }

  #scopeKey(id: string): string {
    return `${this.#prefix}s:${id}`
  }

  async #run(target: Script, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    const argv = [this.#prefix, String(this.#clock.now().getTime()), String(this.#retentionMs), ...args]
    try {
      try {
        return await this.#client.evalsha(target.sha, keys.length, ...keys, ...argv)
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error
        return await this.#client.eval(target.source, keys.length, ...keys, ...argv)
      }
    } catch (error) {
      if (error instanceof GatewayError) throw error
      throw new GatewayError('unavailable', 'Spend counters are unavailable; the request was not admitted', {
        cause: error,
      })
    }
  }
}

/** SCAN MATCH reads `*`, `?`, `[`, `]` and `\\` as glob syntax; a prefix matches itself only. */
function globEscaped(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&')
}

function scopesJson(scopes: readonly ScopeRef[]): string {
  return JSON.stringify(scopes.map((scope) => [scope.id, scope.ttlSeconds ?? 0]))
}

function stringsOf(reply: unknown): string[] {
  if (Array.isArray(reply) && reply.every((item) => typeof item === 'string')) return reply
  throw unexpectedReply('script', reply)
}

function isReservationState(value: string | undefined): value is ReservationState {
  return reservationStates.some((state) => state === value)
}

function reservationOutcome(operation: string, reply: unknown): ReservationOutcome {
  const [kind, amount] = stringsOf(reply)
  if (kind === 'settled' && amount !== undefined) return { kind: 'settled', amountNano: BigInt(amount) }
  if (kind === 'released') return { kind: 'released' }
  if (kind === 'unknown') return { kind: 'unknown' }
  throw unexpectedReply(operation, reply)
}

function unexpectedReply(operation: string, reply: unknown): GatewayError {
  return new GatewayError(
    'internal',
    `Unexpected reply from the ${operation} spend-counter script: ${JSON.stringify(reply)}`,
  )
}
