// Durability: a gateway stopped mid-batch and a crashed worker's leases lose and duplicate nothing when
// another gateway takes over the same store; and callbacks are signed and retried.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { signWebhook } from '../../src/observability/exporters/webhook-signature.ts'
import { batchGenerationId } from '../../src/batches/batch-view.ts'
import { chatLines, isTerminal, model, movableClock, startBatchFixture } from './batch-fixture.ts'
import { chatBodyOf } from '../fake-upstreams/chat-request-body.ts'

const leaseMs = 10 * 60 * 1000

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const value = await read()
    if (done(value)) return value
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 300)}`)
    await sleep(25)
  }
}

test('stopping the gateway mid-batch and a crashed worker holding leases: each line runs, is recorded and billed exactly once', async () => {
  const size = 200
  const first = await startBatchFixture({ perBatchConcurrency: 4 })
  const submitted = await first.submit({ endpoint: '/v1/chat/completions', model, requests: chatLines(size) })
  assert.equal(submitted.status, 202)
  const id = submitted.body.id as string
  await first.waitFor(id, (answer) => answer.body.request_counts.completed >= 20)
  await first.close({ keepStore: true, keepUpstream: true })

  // A worker that died holding leases: its items are pending, leased until 10 minutes from now.
  const store = first.gateway.database.url
  const clock = movableClock()
  const second = await startBatchFixture({ databaseUrl: store, upstream: first.upstream, key: first.key, clock })
  try {
    const db = second.gateway.store.db
    const stranded = await db
      .selectFrom('batch_items')
      .select('id')
      .where('batch_id', '=', id)
      .where('status', '=', 'pending')
      .orderBy('position', 'desc')
      .limit(5)
      .execute()
    assert.equal(stranded.length, 5)
    await db
      .updateTable('batch_items')
      .set({ lease_owner: 'crashed-worker', lease_expires_at: new Date(Date.now() + leaseMs).toISOString() })
      .where(
        'id',
        'in',
        stranded.map((row) => row.id),
      )
      .execute()

    const waiting = await second.waitFor(id, (answer) => answer.body.request_counts.completed === size - 5)
    assert.equal(waiting.body.status, 'in_progress', 'leased lines are not taken before the lease expires')
    clock.advance(leaseMs + 1000)
    second.worker.wake()
    const done = await second.waitFor(id, isTerminal)
    assert.equal(done.status, 200)
    assert.equal(done.body.status, 'completed')
    assert.deepEqual(done.body.request_counts, { total: size, completed: size, failed: 0 })
    const customIds = done.body.results!.map((result) => result.custom_id)
    assert.deepEqual(
      [...customIds].sort(),
      chatLines(size)
        .map((line) => line.custom_id)
        .sort(),
    )

    const sent = new Map<string, number>()
    for (const request of first.upstream.requests) {
      const content = String(chatBodyOf(request).messages[0]?.content)
      sent.set(content, (sent.get(content) ?? 0) + 1)
    }
    assert.equal(sent.size, size)
    assert.ok(
      [...sent.values()].every((count) => count === 1),
      'no line reached the upstream twice',
    )

    const ledger = await until(
      'one ledger row per line',
      () =>
        db
          .selectFrom('ledger_entries')
          .select(['generation_id', 'attempt'])
          .where('generation_id', 'like', `${batchGenerationId(id, 0).slice(0, -1)}%`)
          .execute(),
      (rows) => rows.length >= size,
    )
    assert.equal(ledger.length, size)
    assert.equal(new Set(ledger.map((row) => row.generation_id)).size, size)
  } finally {
    await second.close({ keepStore: true })
    await first.upstream.close()
    await first.gateway.database.dispose()
  }
})

test('callback_url receives a signed batch.completed webhook, retried after a failure', async () => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = []
  const receiver = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    request.on('end', () => {
      received.push({ headers: request.headers, body })
      response.statusCode = received.length === 1 ? 500 : 204
      response.end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const clock = movableClock()
  const fixture = await startBatchFixture({ clock })
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
    const submitted = await fixture.submit({
      endpoint: '/v1/chat/completions',
      model,
      callback_url: url,
      requests: chatLines(2),
    })
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body))
    await fixture.waitFor(submitted.body.id, isTerminal)
    await until(
      'the first attempt',
      async () => received.length,
      (count) => count >= 1,
    )
    clock.advance(60_000)
    fixture.worker.wake()
    await until(
      'the retry',
      async () => received.length,
      (count) => count >= 2,
    )
    const delivery = received[1]!
    const payload = JSON.parse(delivery.body) as {
      type: string
      data: { id: string; status: string; results: unknown }
    }
    assert.equal(payload.type, 'batch.completed')
    assert.equal(payload.data.id, submitted.body.id)
    assert.equal(payload.data.results, null)
    const webhookId = String(delivery.headers['webhook-id'])
    const timestamp = Number(delivery.headers['webhook-timestamp'])
    assert.equal(
      delivery.headers['webhook-signature'],
      signWebhook('whsec_dGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQ=', webhookId, timestamp, delivery.body),
    )
    const row = await until(
      'the delivery to be recorded',
      () =>
        fixture.gateway.store.db
          .selectFrom('batches')
          .select(['webhook_status', 'webhook_attempts'])
          .where('id', '=', submitted.body.id)
          .executeTakeFirstOrThrow(),
      (value) => value.webhook_status === 'delivered',
    )
    assert.equal(row.webhook_attempts, 2)
  } finally {
    await fixture.close()
    await new Promise((resolve) => receiver.close(resolve))
  }
})

test('a batch still unfinished after its 24h window expires with the unrun lines failed', async () => {
  const clock = movableClock()
  const fixture = await startBatchFixture({ clock })
  try {
    await fixture.worker.stop()
    const submitted = await fixture.submit({ endpoint: '/v1/chat/completions', model, requests: chatLines(3) })
    clock.advance(24 * 60 * 60 * 1000 + 1000)
    fixture.worker.start()
    const done = await fixture.waitFor(submitted.body.id, isTerminal)
    assert.equal(done.body.status, 'expired')
    assert.deepEqual(done.body.request_counts, { total: 3, completed: 0, failed: 3 })
    assert.match(done.body.error.message, /24h completion window/)
    assert.deepEqual(done.body.results![0]!.error, {
      type: 'timeout',
      message: 'The batch did not finish within its 24h completion window',
      param: null,
      error_type: 'timeout',
    })
    assert.equal(typeof done.body.finalized_at, 'number')
    assert.equal(fixture.upstream.requests.length, 0)
  } finally {
    await fixture.close()
  }
})
