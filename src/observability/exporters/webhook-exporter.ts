// JSON POST (or PUT) of the record to config.url, signed Standard-Webhooks style. Any 2xx is accepted;
// anything else (or no answer within the timeout) is a failure the worker retries. One signed request
// per record (the documented contract), sent with undici.request through the exporter's own keep-alive
// Agent (a connection pool per origin, reused across records; no redirects followed; closed when the
// worker stops), much cheaper than fetch.
import { Agent, request } from 'undici'
import { assertEgressAllowed } from '../../http/egress-policy.ts'
import { configString } from '../destination-types.ts'
import { DestinationRefused, type Exporter } from './exporter.ts'
import { signWebhook } from './webhook-signature.ts'

export function createWebhookExporter(): Exporter {
  let agent: Agent | null = null
  return {
    async deliver(payload, target, context) {
      const url = await assertEgressAllowed(configString(target.config, 'url') ?? '', context.egress)
      const body = JSON.stringify(payload.record)
      const id = `${payload.record.id}:${target.destinationId}`
      const timestamp = Math.floor(context.now.getTime() / 1000)
      const secret = configString(target.config, 'secret') ?? ''
      const response = await request(url, {
        method: configString(target.config, 'method') === 'PUT' ? 'PUT' : 'POST',
        headers: {
          ...(target.config.headers ?? {}),
          'content-type': 'application/json',
          'user-agent': 'switchyard-observability/1',
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, id, timestamp, body),
        },
        body,
        dispatcher: (agent ??= new Agent({ keepAliveTimeout: 30_000 })),
        signal: AbortSignal.timeout(context.timeoutMs),
      })
      await response.body.dump().catch(() => undefined)
      if (response.statusCode < 200 || response.statusCode > 299)
        throw new DestinationRefused(`webhook answered HTTP ${response.statusCode}`, response.statusCode)
    },
    async close() {
      const closing = agent
      agent = null
      await closing?.close()
    },
  }
}
