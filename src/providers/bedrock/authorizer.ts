// Bedrock credentials. A Bedrock API key (`api_key`, or AWS_BEARER_TOKEN_BEDROCK in the preset) is a
// bearer token. Otherwise every request is signed with SigV4 (service `bedrock`) over its final URL,
// headers and body, with the access key from `options` (access_key_id, secret_access_key,
// session_token) or, with `options.profile`, from that AWS profile (shared credentials and config files).
import { Sha256 } from '@aws-crypto/sha256-js'
import { SignatureV4 } from '@smithy/signature-v4'
import type { Authorizer, AuthorizerDeps, OutgoingRequest, ProviderSettings } from '../provider-adapter.ts'
import { headerAuthorizer } from '../static-authorizer.ts'
import { profileCredentials, type AwsCredentials } from './shared-credentials.ts'

/** The region of a provider: `options.region`, else the one in `bedrock-runtime.{region}.amazonaws.com`. */
export function bedrockRegion(settings: ProviderSettings): string {
  const configured = settings.options?.region
  if (configured !== undefined && configured !== '') return configured
  const match = /bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(settings.baseUrl)
  if (match === null)
    throw new Error(`set options.region for Bedrock provider ${settings.slug} (its base_url names no region)`)
  return match[1]!
}

export function createBedrockAuthorizer(settings: ProviderSettings, deps: AuthorizerDeps): Authorizer {
  const options = settings.options ?? {}
  if (settings.apiKey !== null && options.access_key_id === undefined && options.profile === undefined)
    return headerAuthorizer('authorization', `Bearer ${settings.apiKey}`)
  const credentials = credentialsOf(options, deps)
  let signer: SignatureV4 | undefined
  return {
    authorize: async (request: OutgoingRequest) => {
      signer ??= new SignatureV4({ credentials, region: bedrockRegion(settings), service: 'bedrock', sha256: Sha256 })
      return signRequest(signer, request, new Date(deps.now()))
    },
  }
}

function credentialsOf(
  options: Readonly<Record<string, string>>,
  deps: AuthorizerDeps,
): AwsCredentials | (() => Promise<AwsCredentials>) {
  const { access_key_id: accessKeyId, secret_access_key: secretAccessKey, session_token: sessionToken } = options
  if (accessKeyId !== undefined && secretAccessKey !== undefined)
    return sessionToken === undefined
      ? { accessKeyId, secretAccessKey }
      : { accessKeyId, secretAccessKey, sessionToken }
  if (options.profile !== undefined) return profileCredentials(options.profile, options.credentials_file, deps.now)
  return () =>
    Promise.reject(
      new Error('no AWS credentials: set options.access_key_id and secret_access_key, options.profile, or api_key'),
    )
}

async function signRequest(
  signer: SignatureV4,
  request: OutgoingRequest,
  signingDate: Date,
): Promise<Readonly<Record<string, string>>> {
  const url = request.url
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port === '' ? {} : { port: Number(url.port) }),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...request.headers, host: url.host },
      body: request.body,
    },
    { signingDate },
  )
  const added: Record<string, string> = {}
  for (const [name, value] of Object.entries(signed.headers))
    if (name !== 'host' && !(name in request.headers)) added[name] = value
  return added
}
