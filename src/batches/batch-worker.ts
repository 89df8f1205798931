// Executes batches from the store. Each pass: start validated batches, fail what the window or a cancel
// left unfinished, lease due items (bounded per batch and overall) and run them, finalize batches with
// nothing pending, sweep results past retention, and deliver callbacks. Several instances can run it on
// one store: leases and conditional transitions decide who does what. A finished item wakes the worker
// so a batch does not wait for the poll interval between rounds. A line's result is stored only once
// its ledger row and generation record are committed, so a line whose result is stored is never sent
// again. A live worker renews the leases of the lines it runs every third of a lease, so a line slower
// than the lease is not claimed again while it runs; a line that was in flight when its worker died
// (its lease expires unfinished) runs again, under the same generation id, so it is billed once (the
// ledger insert and the counters' settlement are idempotent per generation and attempt) though the
// provider may see it twice. Such retries are counted (`retriedLines`).
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../domain/clock.ts'
import type { BatchItemRow, BatchRow, BatchesRepository } from '../store/repositories/batches-repository.ts'
import { isTerminalStatus, type BatchStatus } from './batch-status.ts'
import { retentionMs } from './batch-service.ts'
import type { StoredItemResult } from './batch-view.ts'
import { itemError, type BatchItemRunner } from './run-batch-item.ts'
import { neverCancelled } from '../domain/cancellation.ts'

export interface BatchWorkerOptions {
  readonly pollIntervalMs: number
  readonly concurrency: number
  readonly perBatchConcurrency: number
  readonly leaseMs: number
}

export interface BatchWorkerDeps {
  readonly batches: BatchesRepository
  readonly clock: Clock
  readonly logger: FastifyBaseLogger
  readonly runItem: BatchItemRunner
  /** Resolves once the ledger rows and generation records of the lines run so far are committed. */
  readonly recordsDurable: () => Promise<void>
  /** Delivers due callbacks (batch-webhooks.ts); called once per pass. */
  readonly deliverWebhooks?: (now: Date) => Promise<void>
  readonly options: BatchWorkerOptions
}

const terminalStatuses = (Object.keys(isTerminalStatus) as BatchStatus[]).filter((status) => isTerminalStatus[status])

export class BatchWorker {
  readonly owner = `worker-${randomUUID()}`
  readonly #deps: BatchWorkerDeps
  readonly #inFlight = new Map<string, number>()
  readonly #running = new Set<Promise<void>>()
  /** Ids of the items this worker runs, whose leases it renews. */
  readonly #leased = new Set<string>()
  /** When the leases were last renewed (the injected clock's epoch ms). */
  #renewedAt = 0
  #timer: NodeJS.Timeout | null = null
  #pass: Promise<void> | null = null
  #isRerunWanted = false
  #isStopped = true
  /** Set by stop(): a pass in progress returns early (a worker never started still runs passes by hand). */
  #isStopRequested = false
  #retriedLines = 0

  constructor(deps: BatchWorkerDeps) {
    this.#deps = deps
  }

  /** Lines claimed again after an earlier run that did not store a result (a crash, a lost lease), since start. */
  get retriedLines(): number {
    return this.#retriedLines
  }

  start(): void {
    this.#isStopped = false
    this.#isStopRequested = false
    this.wake()
  }

  /** Stops claiming, waits for the items in flight to be recorded. */
  async stop(): Promise<void> {
    this.#isStopped = true
    this.#isStopRequested = true
    if (this.#timer !== null) clearTimeout(this.#timer)
    await this.#pass
    await Promise.allSettled([...this.#running])
  }

  /** Runs a pass now (or right after the current one). */
  wake(): void {
    if (this.#isStopped) return
    if (this.#pass !== null) {
      this.#isRerunWanted = true
      return
    }
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
    this.#pass = this.runPass()
      .catch((error: unknown) =>
        this.#deps.logger.error({ err: error }, 'batch worker pass failed; retrying at the next poll'),
      )
      .finally(() => {
        this.#pass = null
        if (this.#isStopped) return
        if (this.#isRerunWanted) {
          this.#isRerunWanted = false
          this.wake()
        } else {
          // Polling alone never keeps the process alive (close() stops it; a crashed app must still exit).
          this.#timer = setTimeout(() => this.wake(), Math.min(this.#deps.options.pollIntervalMs, this.#renewalMs))
          this.#timer.unref()
        }
      })
  }

  /** One pass over the store (exposed for tests that drive the worker step by step). */
  async runPass(): Promise<void> {
    const { batches, clock } = this.#deps
    const now = clock.now()
    await this.#renewLeases(now)
    const active = await batches.inStatuses(['validating', 'in_progress', 'cancelling'])
    for (const batch of active) {
      if (this.#isStopRequested) return
      await this.#advance(batch, now)
    }
    await batches.sweepResults(new Date(now.getTime() - retentionMs).toISOString(), now.toISOString(), terminalStatuses)
    await this.#deps.deliverWebhooks?.(now)
  }

  get #renewalMs(): number {
    return Math.max(1, Math.floor(this.#deps.options.leaseMs / 3))
  }

  /** Extends the leases of the lines in flight once a third of a lease has passed since the last renewal. */
  async #renewLeases(now: Date): Promise<void> {
    if (this.#leased.size === 0 || now.getTime() - this.#renewedAt < this.#renewalMs) return
    this.#renewedAt = now.getTime()
    const leaseUntil = new Date(now.getTime() + this.#deps.options.leaseMs).toISOString()
    await this.#deps.batches.renewLeases([...this.#leased], this.owner, leaseUntil)
  }

  async #advance(batch: BatchRow, now: Date): Promise<void> {
    const { batches } = this.#deps
    const at = now.toISOString()
    if (batch.status === 'validating') {
      if (await batches.transition(batch.id, ['validating'], 'in_progress')) batch = { ...batch, status: 'in_progress' }
      else return
    }
    if (batch.expires_at <= at)
      return this.#closeUnfinished(
        batch,
        at,
        'expired',
        failure('timeout', 'The batch did not finish within its 24h completion window'),
      )
    if (batch.status === 'cancelling')
      return this.#closeUnfinished(
        batch,
        at,
        'cancelled',
        failure('client_closed', 'The batch was cancelled before this request ran'),
      )
    await this.#claim(batch, now)
    if ((this.#inFlight.get(batch.id) ?? 0) === 0 && (await batches.pendingCount(batch.id)) === 0)
      await this.#finalize(batch, at)
  }

  async #closeUnfinished(
    batch: BatchRow,
    at: string,
    status: 'expired' | 'cancelled',
    result: StoredItemResult,
  ): Promise<void> {
    await this.#deps.batches.failUnleased(batch.id, at, JSON.stringify(result))
    if ((await this.#deps.batches.pendingCount(batch.id)) > 0) return
    const error = status === 'expired' ? JSON.stringify({ message: result.error?.message ?? 'expired' }) : null
    await this.#finish(batch, [batch.status], status, at, error)
  }

  async #finalize(batch: BatchRow, at: string): Promise<void> {
    const fresh = await this.#deps.batches.find(batch.id)
    if (fresh === undefined || fresh.status !== 'in_progress') return
    const isAllFailed = fresh.total > 0 && fresh.failed === fresh.total
    const error = isAllFailed
      ? JSON.stringify({ message: `All ${fresh.total} requests failed; see results[].error` })
      : null
    await this.#finish(fresh, ['in_progress'], isAllFailed ? 'failed' : 'completed', at, error)
  }

  async #finish(
    batch: BatchRow,
    from: readonly string[],
    status: BatchStatus,
    at: string,
    error: string | null,
  ): Promise<void> {
    const costNano = await this.#deps.batches.totalCostNano(batch.id)
    const hasCallback = batch.callback_url !== null
    await this.#deps.batches.transition(batch.id, from, status, {
      finalized_at: at,
      cost_nano: costNano.toString(),
      error,
      webhook_status: hasCallback ? 'pending' : null,
      webhook_next_at: hasCallback ? at : null,
    })
  }

  async #claim(batch: BatchRow, now: Date): Promise<void> {
    const { options } = this.#deps
    const total = [...this.#inFlight.values()].reduce((sum, count) => sum + count, 0)
    const forBatch = this.#inFlight.get(batch.id) ?? 0
    const room = Math.min(options.concurrency - total, options.perBatchConcurrency - forBatch)
    if (room <= 0) return
    const leaseUntil = new Date(now.getTime() + options.leaseMs).toISOString()
    const items = await this.#deps.batches.claimItems(batch.id, this.owner, now.toISOString(), leaseUntil, room)
    if (this.#leased.size === 0) this.#renewedAt = now.getTime()
    for (const item of items) {
      if (item.attempts > 1) this.#retriedLines++
      this.#start(batch, item)
    }
  }

  #start(batch: BatchRow, item: BatchItemRow): void {
    this.#inFlight.set(batch.id, (this.#inFlight.get(batch.id) ?? 0) + 1)
    this.#leased.add(item.id)
    const run = this.#run(batch, item).finally(() => {
      this.#leased.delete(item.id)
      const left = (this.#inFlight.get(batch.id) ?? 1) - 1
      if (left === 0) this.#inFlight.delete(batch.id)
      else this.#inFlight.set(batch.id, left)
      this.#running.delete(run)
      this.wake()
    })
    this.#running.add(run)
  }

  async #run(batch: BatchRow, item: BatchItemRow): Promise<void> {
    const { batches, clock, logger } = this.#deps
    let outcome: { result: StoredItemResult; costNano: bigint }
    try {
      outcome = await this.#deps.runItem(batch, item, neverCancelled)
    } catch (error) {
      logger.error({ err: error, batchId: batch.id, customId: item.custom_id }, 'batch request failed unexpectedly')
      outcome = { result: failure('internal', 'The gateway failed to run this request'), costNano: 0n }
    }
    try {
      await this.#deps.recordsDurable()
    } catch (error) {
      logger.error(
        { err: error, batchId: batch.id, customId: item.custom_id },
        'could not commit the ledger row and generation record of a batch line; it runs again after its lease expires',
      )
      return
    }
    try {
      const isRecorded = await batches.finishItem({
        itemId: item.id,
        owner: this.owner,
        result: JSON.stringify(outcome.result),
        costNano: outcome.costNano,
        isFailed: outcome.result.error !== null,
        at: clock.now().toISOString(),
      })
      if (!isRecorded)
        logger.warn(
          { batchId: batch.id, customId: item.custom_id },
          'batch item lease was lost before its result was recorded; another worker owns it',
        )
    } catch (error) {
      logger.error(
        { err: error, batchId: batch.id, customId: item.custom_id },
        'could not record a batch result; the item runs again after its lease expires',
      )
    }
  }
}

function failure(kind: Parameters<typeof itemError>[0], message: string): StoredItemResult {
  return { response: null, error: itemError(kind, message) }
}
