// A fake Google OAuth2 token endpoint (https://oauth2.googleapis.com/token), a real node:http server.
// It takes the JWT-bearer grant: the assertion must be an RS256 JWT whose signature verifies against
// the public key of a service account it knows, issued by that account's email, for its audience, with
// the cloud-platform scope and a lifetime of at most an hour. Anything else is refused as Google
// refuses it (400/401 `{error, error_description}`). Issued tokens are remembered so the fake Vertex
// can accept exactly them.
//
//   const tokens = await startFakeTokenEndpoint([serviceAccount])   // from makeServiceAccount()
//   ... credentials_json with token_uri: tokens.url ...; tokens.exchanges; tokens.accepts('Bearer ...')

import { createServer } from 'node:http'
import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto'
import type { AddressInfo } from 'node:net'

const googleTokenUrl = 'https://oauth2.googleapis.com/token'
const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer'

/** A service account key as Google issues it (the JSON document) and the public half the fake knows. */
export interface ServiceAccount {
  readonly clientEmail: string
  readonly publicKey: KeyObject
  /** The key file's fields; `token_uri` is added by the test that points it at a fake. */
  readonly json: {
    readonly type: 'service_account'
    readonly project_id: string
    readonly private_key_id: string
    readonly private_key: string
    readonly client_email: string
    readonly client_id: string
  }
}

export function makeServiceAccount(name: string, project = 'fake-project'): ServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const clientEmail = `${name}@${project}.iam.gserviceaccount.com`
  return {
    clientEmail,
    publicKey,
    json: {
      type: 'service_account',
      project_id: project,
      private_key_id: `key-${name}`,
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      client_id: '1234567890',
    },
  }
}

export interface TokenExchange {
  readonly clientEmail: string
  readonly token: string
  readonly claims: Readonly<Record<string, unknown>>
}

export interface FakeTokenEndpoint {
  readonly url: string
  /** Every successful exchange, in order. */
  readonly exchanges: readonly TokenExchange[]
  /** Every request that was refused, with the reason given. */
  readonly refusals: readonly string[]
  /** The lifetime given to the next tokens (seconds; default 3600). */
  expiresIn: number
  /** Whether an Authorization header carries a token this endpoint issued. */
  accepts(authorization: string | string[] | undefined): boolean
  close(): Promise<void>
}

type Verdict = { readonly ok: true; readonly exchange: Omit<TokenExchange, 'token'> } | Refusal
interface Refusal {
  readonly ok: false
  readonly status: number
  readonly error: string
  readonly description: string
}

/** Checks a JWT-bearer assertion against the known accounts, as Google's token endpoint does. */
export function verifyAssertion(
  form: URLSearchParams,
  accounts: readonly ServiceAccount[],
  audiences: readonly string[],
  nowSeconds: number,
): Verdict {
  const refuse = (status: number, error: string, description: string): Refusal => ({
    ok: false,
    status,
    error,
    description,
  })
  if (form.get('grant_type') !== jwtBearerGrant) return refuse(400, 'unsupported_grant_type', 'Invalid grant_type')
  const parts = (form.get('assertion') ?? '').split('.')
  if (parts.length !== 3) return refuse(400, 'invalid_request', 'Invalid JWT')
  const [headerPart, claimsPart, signaturePart] = parts as [string, string, string]
  const header = decodeJson(headerPart)
  const claims = decodeJson(claimsPart)
  if (header?.alg !== 'RS256' || claims === undefined) return refuse(400, 'invalid_grant', 'Invalid JWT')
  const account = accounts.find((candidate) => candidate.clientEmail === claims.iss)
  if (account === undefined) return refuse(400, 'invalid_grant', 'Invalid grant: account not found')
  const signed = Buffer.from(`${headerPart}.${claimsPart}`)
  if (!verify('RSA-SHA256', signed, account.publicKey, Buffer.from(signaturePart, 'base64url')))
    return refuse(401, 'invalid_grant', 'Invalid JWT Signature.')
  if (typeof claims.aud !== 'string' || !audiences.includes(claims.aud))
    return refuse(400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe')
  const iat = Number(claims.iat)
  const exp = Number(claims.exp)
  if (!(exp > iat && exp - iat <= 3600 && iat <= nowSeconds + 300 && exp > nowSeconds))
    return refuse(400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe')
  if (
    !String(claims.scope ?? '')
      .split(' ')
      .includes('https://www.googleapis.com/auth/cloud-platform')
  )
    return refuse(400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.')
  return { ok: true, exchange: { clientEmail: account.clientEmail, claims } }
}

export async function startFakeTokenEndpoint(
  accounts: readonly ServiceAccount[],
  now: () => number = Date.now,
): Promise<FakeTokenEndpoint> {
  const exchanges: TokenExchange[] = []
  const refusals: string[] = []
  const issued = new Set<string>()
  let url = ''
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
      const verdict =
        request.method === 'POST' && request.url === '/token'
          ? verifyAssertion(form, accounts, [url, googleTokenUrl], Math.floor(now() / 1000))
          : { ok: false as const, status: 404, error: 'not_found', description: `No route ${request.url}` }
      response.setHeader('content-type', 'application/json; charset=utf-8')
      if (!verdict.ok) {
        refusals.push(verdict.description)
        response.writeHead(verdict.status)
        response.end(JSON.stringify({ error: verdict.error, error_description: verdict.description }))
        return
      }
      const token = `ya29.fake-${exchanges.length + 1}`
      issued.add(token)
      exchanges.push({ ...verdict.exchange, token })
      response.writeHead(200)
      response.end(JSON.stringify({ access_token: token, expires_in: endpoint.expiresIn, token_type: 'Bearer' }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`
  const endpoint: FakeTokenEndpoint = {
    url,
    exchanges,
    refusals,
    expiresIn: 3600,
    accepts: (authorization) => {
      const value = Array.isArray(authorization) ? authorization[0] : authorization
      return value !== undefined && value.startsWith('Bearer ') && issued.has(value.slice('Bearer '.length))
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
  return endpoint
}

function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
