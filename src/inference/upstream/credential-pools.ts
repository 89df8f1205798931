// Weighted credential pools: a provider configured with several keys spreads its requests across them
// by weight (smooth weighted round robin: over any run of requests each key's share is within one
// request of its weight's share, with no randomness), and each key has its own health. A key the
// provider refuses (401/403: wrong or revoked; 429: over its own quota) is cooled down on its own for
// the provider's Retry-After (or a default), and a key whose calls keep failing is cooled like an open
// circuit; the other keys keep serving. Health state is per instance; a key's own rate limits
// (credential-limits.ts) are kept in the gateway's rate limiter, shared across instances with Redis.
import type { Clock } from '../../domain/clock.ts'
import type { ProviderCredential, ProviderEntry } from '../../domain/catalog.ts'
import type { CredentialAdmission, CredentialLimits, CredentialTokenCharge } from './credential-limits.ts'

/** How an attempt with a credential ended, as far as that credential's health goes. */
export type CredentialOutcome =
  | { readonly kind: 'ok' }
  | { readonly kind: 'refused'; readonly status: number; readonly retryAfterSeconds: number | undefined }
  | { readonly kind: 'failed' }

export interface CredentialPoolSettings {
  /** Cool-down after a 429 without Retry-After. */
  readonly rateLimitedMs: number
  /** Cool-down after a 401/403: the key is wrong or revoked until an operator fixes it. */
  readonly rejectedMs: number
  /** Consecutive failures (5xx, timeouts, resets) that cool a key down, and for how long. */
  readonly failureThreshold: number
  readonly failedMs: number
}

const defaults: CredentialPoolSettings = {
  rateLimitedMs: 30_000,
  rejectedMs: 300_000,
  failureThreshold: 3,
  failedMs: 30_000,
}

interface CredentialState {
  readonly credential: ProviderCredential
  current: number
  coolUntil: number
  failures: number
}

export class CredentialPools {
  readonly #pools = new Map<ProviderEntry, CredentialState[]>()
  readonly #clock: Clock
  readonly #settings: CredentialPoolSettings
  readonly #limits: CredentialLimits | null

  constructor(clock: Clock, settings: Partial<CredentialPoolSettings> = {}, limits: CredentialLimits | null = null) {
    this.#clock = clock
    this.#settings = { ...defaults, ...settings }
    this.#limits = limits
  }

  /**
   * Counts one request with the picked credential against its own rate limits: the limit that is full
   * (the credential is then skipped for this request, not cooled), or the token charge to settle.
   */
  async admit(
    provider: ProviderEntry,
    credential: ProviderCredential,
    estimatedTokens: () => number,
  ): Promise<CredentialAdmission> {
    if (this.#limits === null) return { refusal: null, tokens: null }
    return this.#limits.admit(provider, credential, estimatedTokens)
  }

  /** Corrects a credential's token charge with the tokens its answer reported (input and output). */
  async settleTokens(charge: CredentialTokenCharge, usedTokens: number): Promise<void> {
    await this.#limits?.settleTokens(charge, usedTokens)
  }

  /**
   * The next credential of the provider's pool, skipping those already tried by this request and those
   * cooling down; null when none is left.
   */
  pick(provider: ProviderEntry, tried: ReadonlySet<string>): ProviderCredential | null {
    const now = this.#clock.now().getTime()
    const states = this.#statesOf(provider)
    let total = 0
    let best: CredentialState | null = null
    for (const state of states) {
      if (tried.has(state.credential.name) || state.coolUntil > now) continue
      state.current += state.credential.weight
      total += state.credential.weight
      if (best === null || state.current > best.current) best = state
    }
    if (best === null) return null
    best.current -= total
    return best.credential
  }

  /** Records how an attempt with `name` ended. */
  report(provider: ProviderEntry, name: string, outcome: CredentialOutcome): void {
    const state = this.#statesOf(provider).find((candidate) => candidate.credential.name === name)
    if (state === undefined) return
    const now = this.#clock.now().getTime()
    if (outcome.kind === 'ok') {
      state.failures = 0
      return
    }
    if (outcome.kind === 'refused') {
      const fallback = outcome.status === 429 ? this.#settings.rateLimitedMs : this.#settings.rejectedMs
      const wait = outcome.retryAfterSeconds === undefined ? fallback : outcome.retryAfterSeconds * 1000
      state.coolUntil = Math.max(state.coolUntil, now + wait)
      return
    }
    state.failures += 1
    if (state.failures >= this.#settings.failureThreshold) {
      state.failures = 0
      state.coolUntil = Math.max(state.coolUntil, now + this.#settings.failedMs)
    }
  }

  /** Names of the provider's credentials cooling down now (for messages and tests). */
  coolingDown(provider: ProviderEntry): string[] {
    const now = this.#clock.now().getTime()
    return this.#statesOf(provider)
      .filter((state) => state.coolUntil > now)
      .map((state) => state.credential.name)
  }

  #statesOf(provider: ProviderEntry): CredentialState[] {
    let states = this.#pools.get(provider)
    if (states === undefined) {
      states = (provider.credentials ?? []).map((credential) => ({ credential, current: 0, coolUntil: 0, failures: 0 }))
      this.#pools.set(provider, states)
    }
    return states
  }
}
