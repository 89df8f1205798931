// Delivers `callback_url` notifications when a batch ends: a JSON POST of `{type, timestamp, data}`
// signed Standard-Webhooks style (webhook-id, webhook-timestamp, webhook-signature) with the operator's
// `batches.webhook_secret`, through the egress policy. Failures retry with exponential backoff; after
// the last attempt the callback is marked dead (the batch itself is unaffected).
import type { FastifyBaseLogger } from 'fastify'
import { assertEgressAllowed, type EgressPolicy } from '../http/egress-policy.ts'
import { signWebhook } from '../observability/exporters/webhook-signature.ts'
import type { BatchRow, BatchesRepository } from '../store/repositories/batches-repository.ts'
import { webhookEvents } from './batch-status.ts'
import { batchView } from './batch-view.ts'

export interface BatchWebhookDeps {
  readonly batches: BatchesRepository
  readonly egress: EgressPolicy
  readonly secret: string | null
  readonly logger: FastifyBaseLogger
  readonly maxAttempts?: number
  readonly timeoutMs?: number
}

const baseDelayMs = 5000
const maxDelayMs = 60 * 60 * 1000

export function createBatchWebhookDelivery(deps: BatchWebhookDeps): (now: Date) => Promise<void> {
  const maxAttempts = deps.maxAttempts ?? 8
  return async (now) => {
    const due = await deps.batches.webhooksDue(now.toISOString())
    for (const batch of due) {
      const attempts = batch.webhook_attempts + 1
      try {
        await deliver(batch, now, deps)
        await deps.batches.updateWebhook(batch.id, {
          webhook_status: 'delivered',
          webhook_attempts: attempts,
          webhook_next_at: null,
        })
      } catch (error) {
        const isDead = attempts >= maxAttempts
        deps.logger.warn(
          { err: error, batchId: batch.id, attempts },
          isDead ? 'batch callback failed for the last time' : 'batch callback failed; will retry',
        )
        const delay = Math.min(baseDelayMs * 2 ** (attempts - 1), maxDelayMs)
        await deps.batches.updateWebhook(batch.id, {
          webhook_status: isDead ? 'dead' : 'pending',
          webhook_attempts: attempts,
          webhook_next_at: isDead ? null : new Date(now.getTime() + delay).toISOString(),
        })
      }
    }
  }
}

async function deliver(batch: BatchRow, now: Date, deps: BatchWebhookDeps): Promise<void> {
  const url = await assertEgressAllowed(batch.callback_url ?? '', deps.egress)
  const type = webhookEvents[batch.status as keyof typeof webhookEvents] ?? `batch.${batch.status}`
  const timestamp = Math.floor(now.getTime() / 1000)
  const body = JSON.stringify({ type, timestamp: now.toISOString(), data: batchView(batch, null) })
  const id = `${batch.id}:${type}`
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'switchyard-batches/1',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
  }
  if (deps.secret !== null) headers['webhook-signature'] = signWebhook(deps.secret, id, timestamp, body)
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(deps.timeoutMs ?? 10_000),
  })
  await response.arrayBuffer().catch(() => undefined)
  if (response.status < 200 || response.status > 299) throw new Error(`callback answered HTTP ${response.status}`)
}
