// Same-endpoint retries for a provider that asks for them (`retry` in its config; off by default): a
// retryable failure before the answer began (429, 5xx, timeout, reset) is retried at the same endpoint
// after an exponential backoff with full jitter (a random wait in [0, min(max_ms, base_ms * 2^n))), or
// after the provider's Retry-After when that is shorter than max_ms; a longer Retry-After, or the last
// attempt's failure, goes back to the fallback loop (the next endpoint). A pool whose credentials are
// all at their own rate limits is not retried (nothing was sent; the next endpoint may serve at once).
// The wait ends early when the client goes away.
import type { CancelSignal } from '../../domain/cancellation.ts'
import type { ProviderRetry } from '../../domain/catalog.ts'
import { AttemptError } from './attempt-error.ts'
import { CredentialLimitsReached } from './credential-limits-reached.ts'

export async function retrySameEndpoint<T>(
  retry: ProviderRetry,
  signal: CancelSignal,
  send: () => Promise<T>,
  random: () => number = Math.random,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send()
    } catch (error) {
      if (!(error instanceof AttemptError) || !error.isRetryable || signal.aborted) throw error
      if (error instanceof CredentialLimitsReached) throw error
      if (attempt >= retry.maxAttempts) throw error
      const waitMs = backoffMs(retry, attempt, error.retryAfterSeconds, random)
      if (waitMs === null) throw error
      await sleep(waitMs, signal)
      if (signal.aborted) throw error
    }
  }
}

/** The wait before attempt `attempt + 1`, or null when the provider asks for longer than max_ms. */
export function backoffMs(
  retry: ProviderRetry,
  attempt: number,
  retryAfterSeconds: number | undefined,
  random: () => number,
): number | null {
  if (retryAfterSeconds !== undefined) {
    const asked = retryAfterSeconds * 1000
    return asked <= retry.maxMs ? asked : null
  }
  const ceiling = Math.min(retry.maxMs, retry.baseMs * 2 ** (attempt - 1))
  return Math.floor(random() * ceiling)
}

function sleep(ms: number, signal: CancelSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}
