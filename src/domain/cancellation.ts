// How a request in flight learns that its client went away. The pipeline needs only "has it happened"
// and "tell me when it does", so it takes a CancelSignal: a real AbortSignal is one, and so is the much
// cheaper Cancellation each HTTP request gets. Node 20's AbortSignal is expensive per request: creating
// one costs ~3 µs, and V8 promotes every one to the old generation at its first scavenge, taking along
// whatever its listeners reach (the upstream call, the request's decoded body), so a gateway that made
// one per request filled the old generation with request garbage until the next full GC.

export interface CancelSignal {
  readonly aborted: boolean
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void
  removeEventListener(type: 'abort', listener: () => void): void
}

/** A CancelSignal that its owner aborts once. Listeners run once, in the order they were added. */
export class Cancellation implements CancelSignal {
  #aborted = false
  #listeners: (() => void)[] = []

  get aborted(): boolean {
    return this.#aborted
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.#aborted) this.#listeners.push(listener)
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.#listeners.indexOf(listener)
    if (index !== -1) this.#listeners.splice(index, 1)
  }

  abort(): void {
    if (this.#aborted) return
    this.#aborted = true
    const listeners = this.#listeners
    this.#listeners = []
    for (const listener of listeners) listener()
  }
}

/** A signal that is never aborted, for calls that no client can cancel. */
export const neverCancelled: CancelSignal = {
  aborted: false,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
}

/**
 * A real AbortSignal that follows `signal`, for APIs that need one (`fetch`, `AbortSignal.any`). An
 * AbortSignal is returned as it is; for anything else a controller is made, so call this only off the
 * hot path.
 */
export function toAbortSignal(signal: CancelSignal): AbortSignal {
  if (signal instanceof AbortSignal) return signal
  const controller = new AbortController()
  if (signal.aborted) controller.abort()
  else signal.addEventListener('abort', () => controller.abort(), { once: true })
  return controller.signal
}
