// Standard Webhooks signing: `webhook-signature: v1,<base64 HMAC-SHA-256 of "id.timestamp.body">`.
// A secret of the form `whsec_<base64>` is keyed by its decoded bytes (as the Standard Webhooks
// libraries do); any other secret is keyed by its UTF-8 bytes.
import { createHmac } from 'node:crypto'

export function webhookSigningKey(secret: string): Buffer {
  return secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8')
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', webhookSigningKey(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64')
  return `v1,${digest}`
}
