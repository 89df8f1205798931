// Sends through a provider's credential pool: the pool picks a key by weight; a key the provider refuses
// (401, 403, 429) is cooled down and the same request goes at once to the next key of the pool, so one
// bad or exhausted key never fails a request another key can serve. Other failures count against the
// key's health and go back to the fallback loop (the next endpoint). A key at one of its own rate
// limits (`requests_per_minute`, `tokens_per_minute`) is skipped for this request without calling the
// provider. With every key tried, cooling down or at its limits, the attempt fails as rate limited
// (retryable: the fallback loop moves on; with no endpoint left the client gets the 429). The answer
// of a key with a token limit carries `settleCredentialTokens`, which its reader calls with the usage
// the provider reported, so the key's token limit counts what was used, not only the estimate.
import type { ProviderCredential, ProviderEntry } from '../../domain/catalog.ts'
import type { CancelSignal } from '../../domain/cancellation.ts'
import type { ProviderAdapter, UpstreamRequest } from '../../providers/provider-adapter.ts'
import { AttemptError } from './attempt-error.ts'
import type { CredentialRefusal } from './credential-limits.ts'
import { CredentialLimitsReached } from './credential-limits-reached.ts'
import type { UpstreamAnswer, UpstreamTransport } from './upstream-transport.ts'

export type SendAs = (
  provider: ProviderEntry,
  adapter: ProviderAdapter,
  request: UpstreamRequest,
  signal: CancelSignal,
  transport: UpstreamTransport,
) => Promise<UpstreamAnswer>

/** Each credential's view of its provider (the key in place of the pool), made once so its authorizer is cached. */
const asCredential = new WeakMap<ProviderCredential, ProviderEntry>()

export async function sendWithCredentialPool(
  provider: ProviderEntry,
  adapter: ProviderAdapter,
  request: UpstreamRequest,
  signal: CancelSignal,
  transport: UpstreamTransport,
  sendAs: SendAs,
): Promise<UpstreamAnswer> {
  const pools = transport.credentials
  const tried = new Set<string>()
  const refusals: CredentialRefusal[] = []
  const estimatedTokens = lazyTokenEstimate(request)
  let last: AttemptError | null = null
  for (;;) {
    const credential = pools.pick(provider, tried)
    if (credential === null) throw last ?? nothingLeft(provider, refusals, pools.coolingDown(provider))
    tried.add(credential.name)
    const admission = await pools.admit(provider, credential, estimatedTokens)
    if (admission.refusal !== null) {
      refusals.push(admission.refusal)
      continue
    }
    try {
      const answer = await sendAs(providerWith(provider, credential), adapter, request, signal, transport)
      pools.report(provider, credential.name, { kind: 'ok' })
      const charge = admission.tokens
      if (charge === null) return answer
      return { ...answer, settleCredentialTokens: (usedTokens) => pools.settleTokens(charge, usedTokens) }
    } catch (error) {
      if (!(error instanceof AttemptError)) throw error
      const status = error.upstreamStatus
      if (status === 401 || status === 403 || status === 429) {
        pools.report(provider, credential.name, { kind: 'refused', status, retryAfterSeconds: error.retryAfterSeconds })
        last = error
        continue
      }
      if (error.isRetryable) pools.report(provider, credential.name, { kind: 'failed' })
      throw error
    }
  }
}

function providerWith(provider: ProviderEntry, credential: ProviderCredential): ProviderEntry {
  let entry = asCredential.get(credential)
  if (entry === undefined) {
    entry = { ...provider, apiKey: credential.apiKey }
    asCredential.set(credential, entry)
  }
  return entry
}

/** The request's input tokens as a credential's token limit counts them: about one per three bytes of its body. */
function lazyTokenEstimate(request: UpstreamRequest): () => number {
  let tokens: number | null = null
  return () => (tokens ??= Math.ceil(Buffer.byteLength(JSON.stringify(request.body)) / 3))
}

function nothingLeft(
  provider: ProviderEntry,
  refusals: readonly CredentialRefusal[],
  coolingDown: readonly string[],
): AttemptError {
  if (refusals.length > 0) return new CredentialLimitsReached(provider, refusals, coolingDown)
  return new AttemptError(
    'rate_limited',
    `${provider.name}: every credential of the pool is cooling down (${coolingDown.join(', ')})`,
    429,
  )
}
