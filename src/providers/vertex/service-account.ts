// Google credentials as Application Default Credentials files hold them, exchanged for an OAuth2
// access token: a service-account key signs a JWT (RS256) that the token endpoint trades for a token
// (the JWT-bearer grant, RFC 7523); a user's credentials (`gcloud auth application-default login`)
// trade their refresh token.
import { createSign } from 'node:crypto'

export const defaultTokenUrl = 'https://oauth2.googleapis.com/token'
const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform'
const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer'

export type GoogleCredentials =
  | {
      readonly type: 'service_account'
      readonly clientEmail: string
      readonly privateKey: string
      readonly privateKeyId: string | undefined
      readonly tokenUri: string | undefined
    }
  | {
      readonly type: 'authorized_user'
      readonly clientId: string
      readonly clientSecret: string
      readonly refreshToken: string
    }

/** Reads a credentials JSON document; anything else throws naming what is missing (never a secret). */
export function parseGoogleCredentials(text: string): GoogleCredentials {
  let parsed: Record<string, unknown>
  try {
    const value = JSON.parse(text) as unknown
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object')
    parsed = value as Record<string, unknown>
  } catch {
    throw new Error('the Google credentials are not a JSON object')
  }
  const field = (name: string): string => {
    const value = parsed[name]
    if (typeof value !== 'string' || value === '') throw new Error(`the Google credentials have no ${name}`)
    return value
  }
  const optional = (name: string): string | undefined =>
    typeof parsed[name] === 'string' && parsed[name] !== '' ? parsed[name] : undefined
  if (parsed.type === 'service_account')
    return {
      type: 'service_account',
      clientEmail: field('client_email'),
      privateKey: field('private_key'),
      privateKeyId: optional('private_key_id'),
      tokenUri: optional('token_uri'),
    }
  if (parsed.type === 'authorized_user')
    return {
      type: 'authorized_user',
      clientId: field('client_id'),
      clientSecret: field('client_secret'),
      refreshToken: field('refresh_token'),
    }
  throw new Error(
    `Google credentials of type ${JSON.stringify(parsed.type ?? null)} are not supported (service_account or authorized_user)`,
  )
}

/** The form body a token endpoint at `tokenUrl` takes for these credentials, issued at `nowMs`. */
export function tokenRequestForm(credentials: GoogleCredentials, tokenUrl: string, nowMs: number): string {
  if (credentials.type === 'authorized_user')
    return new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      refresh_token: credentials.refreshToken,
    }).toString()
  const issuedAt = Math.floor(nowMs / 1000)
  const assertion = signJwt(
    { alg: 'RS256', typ: 'JWT', ...(credentials.privateKeyId === undefined ? {} : { kid: credentials.privateKeyId }) },
    { iss: credentials.clientEmail, scope: cloudPlatformScope, aud: tokenUrl, iat: issuedAt, exp: issuedAt + 3600 },
    credentials.privateKey,
  )
  return new URLSearchParams({ grant_type: jwtBearerGrant, assertion }).toString()
}

function signJwt(header: object, claims: object, privateKeyPem: string): string {
  const signingInput = `${base64Url(JSON.stringify(header))}.${base64Url(JSON.stringify(claims))}`
  let signature: Buffer
  try {
    signature = createSign('RSA-SHA256').update(signingInput).sign(privateKeyPem)
  } catch {
    throw new Error('the service account private_key is not a valid PEM RSA key')
  }
  return `${signingInput}.${signature.toString('base64url')}`
}

function base64Url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url')
}
