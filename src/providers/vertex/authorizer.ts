// Vertex AI credentials: a static OAuth access token (`api_key`, sent as a bearer token), or Google
// credentials from `options.credentials_file` (a path, as GOOGLE_APPLICATION_CREDENTIALS names it) or
// `options.credentials_json` (the document inline), exchanged at the token endpoint for an access
// token cached until five minutes before it expires. The endpoint is `options.token_url`, else the
// key's `token_uri`, else Google's. Concurrent requests share one exchange; a failed one is not kept.
import { AccessTokenCache, readTokenAnswer } from '../access-token-cache.ts'
import type { Authorizer, AuthorizerDeps, ProviderSettings } from '../provider-adapter.ts'
import { headerAuthorizer } from '../static-authorizer.ts'
import { defaultTokenUrl, parseGoogleCredentials, tokenRequestForm, type GoogleCredentials } from './service-account.ts'

export function createVertexAuthorizer(settings: ProviderSettings, deps: AuthorizerDeps): Authorizer {
  const options = settings.options ?? {}
  const { credentials_file: file, credentials_json: inline } = options
  if (file === undefined && inline === undefined)
    return headerAuthorizer('authorization', settings.apiKey === null ? null : `Bearer ${settings.apiKey}`)
  let credentials: Promise<GoogleCredentials> | undefined
  const credentialsOf = (): Promise<GoogleCredentials> =>
    (credentials ??= (inline !== undefined ? Promise.resolve(inline) : deps.readFile(file ?? '')).then(
      parseGoogleCredentials,
      (error: unknown) => {
        throw new Error(`cannot read the Google credentials file ${file}: ${(error as Error).message}`)
      },
    ))
  const tokens = new AccessTokenCache(async () => {
    let current: GoogleCredentials
    try {
      current = await credentialsOf()
    } catch (error) {
      credentials = undefined
      throw error
    }
    const tokenUrl = options.token_url ?? (current.type === 'service_account' ? current.tokenUri : undefined)
    const url = tokenUrl ?? defaultTokenUrl
    const form = tokenRequestForm(current, url, deps.now())
    const answer = await deps.post(url, { 'content-type': 'application/x-www-form-urlencoded' }, form)
    try {
      return readTokenAnswer(answer.status, answer.body, deps.now())
    } catch (error) {
      throw new Error(`Vertex AI ${describe(current)}: ${(error as Error).message}`)
    }
  }, deps.now)
  return { authorize: async () => ({ authorization: `Bearer ${await tokens.token()}` }) }
}

function describe(credentials: GoogleCredentials): string {
  return credentials.type === 'service_account'
    ? `service account ${credentials.clientEmail}`
    : `user credentials of client ${credentials.clientId}`
}
