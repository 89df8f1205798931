// One JSON object per trace at `<pathTemplate>/<traceId>-<timestamp>.json` in the bucket, via the AWS
// SDK (path-style, checksums only when required, so R2/MinIO/s3rver work through `endpoint`), through
// one long-lived client per destination (rebuilt when its settings change). The SDK loads on first
// delivery, once.
import type { S3Client } from '@aws-sdk/client-s3'
import { assertEgressAllowed } from '../../http/egress-policy.ts'
import { configString, type DestinationConfig } from '../destination-types.ts'
import type { OutboxPayload } from '../destination-record.ts'
import { DestinationClients } from './destination-clients.ts'
import { DestinationRefused, type Exporter } from './exporter.ts'

/** The object key: path template variables {prefix} {date} {year} {month} {day} {apiKeyName}. */
export function s3ObjectKey(config: DestinationConfig, payload: OutboxPayload): string {
  const startedAt = new Date(payload.record.started_at)
  const date = startedAt.toISOString().slice(0, 10)
  const [year, month, day] = date.split('-')
  const variables: Record<string, string> = {
    prefix: configString(config, 'prefix') ?? 'openrouter-traces',
    date,
    year: year ?? '',
    month: month ?? '',
    day: day ?? '',
    apiKeyName: payload.apiKeyName.replace(/[^A-Za-z0-9._-]+/g, '_') || 'unknown',
  }
  const template = configString(config, 'pathTemplate') ?? '{prefix}/{date}'
  const path = template
    .replace(/\{(\w+)\}/g, (whole, name: string) => variables[name] ?? whole)
    .replace(/^\/+|\/+$/g, '')
  const fileName = `${payload.record.trace_id}-${startedAt.getTime()}.json`
  return path === '' ? fileName : `${path}/${fileName}`
}

/** The SDK's error, naming the HTTP status when the bucket's server answered one. */
function s3Failure(error: unknown): unknown {
  if (!(error instanceof Error) || !('$metadata' in error)) return error
  const metadata = error.$metadata as { httpStatusCode?: unknown } | undefined
  const status = metadata?.httpStatusCode
  if (typeof status !== 'number') return error
  return new DestinationRefused(`S3 answered HTTP ${status} (${error.name}: ${error.message})`, status)
}

export function createS3Exporter(): Exporter {
  const clients = new DestinationClients<S3Client>(async (client) => client.destroy())
  let sdk: Promise<typeof import('@aws-sdk/client-s3')> | undefined
  return {
    async deliver(payload, target, context) {
      const { config } = target
      const endpoint = configString(config, 'endpoint')
      if (endpoint !== undefined) await assertEgressAllowed(endpoint, context.egress)
      const sessionToken = configString(config, 'sessionToken')
      const { PutObjectCommand, S3Client } = await (sdk ??= import('@aws-sdk/client-s3'))
      const region = configString(config, 'region') ?? 'us-east-1'
      const credentials = {
        accessKeyId: configString(config, 'accessKeyId') ?? '',
        secretAccessKey: configString(config, 'secretAccessKey') ?? '',
        ...(sessionToken === undefined ? {} : { sessionToken }),
      }
      const settings = JSON.stringify([region, endpoint ?? null, credentials])
      const client = clients.get(
        target.destinationId,
        settings,
        () =>
          new S3Client({
            region,
            ...(endpoint === undefined ? {} : { endpoint }),
            forcePathStyle: true,
            requestChecksumCalculation: 'WHEN_REQUIRED',
            maxAttempts: 1,
            credentials,
          }),
      )
      await client
        .send(
          new PutObjectCommand({
            Bucket: configString(config, 'bucketName'),
            Key: s3ObjectKey(config, payload),
            Body: JSON.stringify(payload.record),
            ContentType: 'application/json',
          }),
          { abortSignal: AbortSignal.timeout(context.timeoutMs) },
        )
        .catch((error: unknown) => {
          throw s3Failure(error)
        })
    },
    release: (destinationId) => clients.release(destinationId),
    close: () => clients.closeAll(),
  }
}
