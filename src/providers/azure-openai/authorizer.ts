// Azure OpenAI credentials: the resource key in `api-key`, or a Microsoft Entra ID access token
// (`Authorization: Bearer`) from the client-credentials grant when `options.tenant_id`, `client_id`
// and `client_secret` are set, cached until shortly before it expires.
import { AccessTokenCache, readTokenAnswer } from '../access-token-cache.ts'
import type { Authorizer, AuthorizerDeps, ProviderSettings } from '../provider-adapter.ts'
import { headerAuthorizer } from '../static-authorizer.ts'

const cognitiveServicesScope = 'https://cognitiveservices.azure.com/.default'

export function createAzureAuthorizer(settings: ProviderSettings, deps: AuthorizerDeps): Authorizer {
  const options = settings.options ?? {}
  const { tenant_id: tenant, client_id: clientId, client_secret: clientSecret } = options
  if (tenant === undefined || clientId === undefined || clientSecret === undefined)
    return headerAuthorizer('api-key', settings.apiKey)
  const tokenUrl =
    options.token_url ?? `https://login.microsoftonline.com/${encodeURIComponent(tenant)}/oauth2/v2.0/token`
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
    scope: options.scope ?? cognitiveServicesScope,
  }).toString()
  const tokens = new AccessTokenCache(async () => {
    const answer = await deps.post(tokenUrl, { 'content-type': 'application/x-www-form-urlencoded' }, form)
    return readTokenAnswer(answer.status, answer.body, deps.now())
  }, deps.now)
  return { authorize: async () => ({ authorization: `Bearer ${await tokens.token()}` }) }
}
