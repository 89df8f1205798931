// How observability records are delivered: the tuning both delivery paths share (config
// `observability.delivery`, documented in docs/observability.md) and the retry schedule of a record
// whose delivery failed.
import type { Config } from '../config/config.ts'

export interface DeliveryOptions {
  /** Deliver fresh records from memory first; off, every record goes through the outbox. */
  readonly direct: boolean
  /**
   * How long fresh records gather in memory before they go out together (a lane holding `batchSize`
   * goes at once); also the most a crash can lose of records not yet sent.
   */
  readonly batchDelayMs: number
  /** A fresh record still being sent after this long is written to the outbox (leased), so a crash keeps it. */
  readonly spillAfterMs: number
  readonly pollIntervalMs: number
  readonly maxAttempts: number
  readonly backoffBaseMs: number
  readonly backoffMaxMs: number
  readonly concurrencyPerDestination: number
  readonly leaseMs: number
  readonly requestTimeoutMs: number
  readonly batchSize: number
}

export const defaultDeliveryOptions: DeliveryOptions = {
  direct: true,
  batchDelayMs: 500,
  spillAfterMs: 1000,
  pollIntervalMs: 1000,
  maxAttempts: 8,
  backoffBaseMs: 1000,
  backoffMaxMs: 5 * 60 * 1000,
  concurrencyPerDestination: 4,
  leaseMs: 60 * 1000,
  requestTimeoutMs: 10 * 1000,
  batchSize: 100,
}

export function deliveryOptionsFrom(config: Config): DeliveryOptions {
  const given = config.observability.delivery
  return {
    direct: given.direct ?? defaultDeliveryOptions.direct,
    batchDelayMs: given.batch_delay_ms ?? defaultDeliveryOptions.batchDelayMs,
    spillAfterMs: given.spill_after_ms ?? defaultDeliveryOptions.spillAfterMs,
    pollIntervalMs: given.poll_interval_ms ?? defaultDeliveryOptions.pollIntervalMs,
    maxAttempts: given.max_attempts ?? defaultDeliveryOptions.maxAttempts,
    backoffBaseMs: given.backoff_base_ms ?? defaultDeliveryOptions.backoffBaseMs,
    backoffMaxMs: given.backoff_max_ms ?? defaultDeliveryOptions.backoffMaxMs,
    concurrencyPerDestination: given.concurrency_per_destination ?? defaultDeliveryOptions.concurrencyPerDestination,
    leaseMs: given.lease_ms ?? defaultDeliveryOptions.leaseMs,
    requestTimeoutMs: given.request_timeout_ms ?? defaultDeliveryOptions.requestTimeoutMs,
    batchSize: given.batch_size ?? defaultDeliveryOptions.batchSize,
  }
}

/** Delay before attempt `attempts + 1`: base * 2^(attempts - 1), capped. */
export function backoffDelayMs(
  attempts: number,
  options: Pick<DeliveryOptions, 'backoffBaseMs' | 'backoffMaxMs'>,
): number {
  return Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** Math.max(0, attempts - 1))
}

/** After a record's `attempts`-th failed attempt: when to try again, or whether to give up (dead-letter). */
export function afterFailedAttempt(
  attempts: number,
  options: DeliveryOptions,
  now: Date,
): { nextAttemptAt: string; isDead: boolean } {
  return {
    nextAttemptAt: new Date(now.getTime() + backoffDelayMs(attempts, options)).toISOString(),
    isDead: attempts >= options.maxAttempts,
  }
}
