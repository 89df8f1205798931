// The fake Bedrock's check of a request's SigV4 signature: it signs the received request again with
// the credentials it knows (at the request's own x-amz-date) and compares the Authorization header.
// A wrong key, region, service, body or signed header fails.
import { Sha256 } from '@aws-crypto/sha256-js'
import { SignatureV4 } from '@smithy/signature-v4'
import type { RecordedRequest } from './fake-upstream.ts'

export interface Sigv4Expectation {
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly sessionToken?: string
  readonly region: string
  readonly service: string
}

export async function verifySigv4(record: RecordedRequest, expected: Sigv4Expectation): Promise<boolean> {
  const authorization = header(record, 'authorization')
  const date = header(record, 'x-amz-date')
  if (authorization === undefined || date === undefined) return false
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? []
  const headers: Record<string, string> = {}
  for (const name of signedHeaders) {
    const value = header(record, name)
    if (value === undefined) return false
    headers[name] = value
  }
  const url = new URL(record.path, `http://${header(record, 'host') ?? 'localhost'}`)
  const signer = new SignatureV4({
    credentials: {
      accessKeyId: expected.accessKeyId,
      secretAccessKey: expected.secretAccessKey,
      ...(expected.sessionToken === undefined ? {} : { sessionToken: expected.sessionToken }),
    },
    region: expected.region,
    service: expected.service,
    sha256: Sha256,
  })
  const signed = await signer.sign(
    {
      method: record.method,
      protocol: 'http:',
      hostname: url.hostname,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: record.rawBody,
    },
    { signingDate: parseAmzDate(date) },
  )
  return signed.headers.authorization === authorization
}

function header(record: RecordedRequest, name: string): string | undefined {
  const value = record.headers[name]
  return Array.isArray(value) ? value.join(',') : value
}

function parseAmzDate(text: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text)
  return m === null ? new Date(Number.NaN) : new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!))
}
