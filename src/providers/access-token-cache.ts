// An OAuth2 access token held until shortly before it expires, then fetched again. Concurrent callers
// share one fetch; a failed fetch is not cached (the next call tries again).

export interface AccessToken {
  readonly token: string
  /** Milliseconds since the epoch. */
  readonly expiresAtMs: number
}

/** Tokens are refreshed this long before they expire, so none is sent at the edge of its life. */
const refreshMarginMs = 5 * 60_000

export class AccessTokenCache {
  readonly #fetch: () => Promise<AccessToken>
  readonly #now: () => number
  #current: AccessToken | null = null
  #pending: Promise<AccessToken> | null = null

  constructor(fetch: () => Promise<AccessToken>, now: () => number) {
    this.#fetch = fetch
    this.#now = now
  }

  async token(): Promise<string> {
    const current = this.#current
    if (current !== null && this.#now() < current.expiresAtMs - refreshMarginMs) return current.token
    this.#pending ??= this.#fetch().finally(() => {
      this.#pending = null
    })
    const fresh = await this.#pending
    this.#current = fresh
    return fresh.token
  }
}

/** Reads a token endpoint's answer (`{access_token, expires_in}`); anything else throws with its reason. */
export function readTokenAnswer(status: number, body: string, nowMs: number): AccessToken {
  let parsed: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown }
  try {
    parsed = JSON.parse(body) as typeof parsed
  } catch {
    parsed = {}
  }
  if (status < 200 || status >= 300 || typeof parsed.access_token !== 'string') {
    const reason = [parsed.error, parsed.error_description].filter((part) => typeof part === 'string').join(': ')
    throw new Error(`the token endpoint answered HTTP ${status}${reason === '' ? '' : ` (${reason})`}`)
  }
  const expiresIn = Number(parsed.expires_in ?? 3600)
  return {
    token: parsed.access_token,
    expiresAtMs: nowMs + (Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600) * 1000,
  }
}
