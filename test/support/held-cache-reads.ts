// Holds a cache's read-back of a change (the store call its refresh makes, told apart from the service's
// own calls by the stack), so a test can check that a write through the API does not answer before
// this instance's cache holds the change (src/http/answer-when-applied.ts).
import assert from 'node:assert/strict'
import { setImmediate as nextTurn } from 'node:timers/promises'

export interface HeldReads {
  /** Asserts `pending` is not answered while a read by the cache is held, then lets the reads go and returns the answer. */
  answeredAfter<T>(pending: Promise<T>): Promise<T>
  /** Puts the store method back. */
  restore(): void
}

/** Holds calls to `target[method]` made from `callerModule` (a source file's name, e.g. 'workspace-cache'). */
export function holdCacheReads<T extends object>(target: T, method: keyof T & string, callerModule: string): HeldReads {
  const original = target[method] as (...args: unknown[]) => Promise<unknown>
  const held: (() => void)[] = []
  Object.assign(target, {
    [method]: async (...args: unknown[]) => {
      if (new Error().stack?.includes(callerModule) === true) await new Promise<void>((resolve) => held.push(resolve))
      return original.apply(target, args)
    },
  })
  return {
    async answeredAfter(pending) {
      let done = false
      void pending.then(() => (done = true))
      while (held.length === 0 && !done) await nextTurn()
      await nextTurn()
      assert.equal(done, false, `answered before the ${callerModule} read the change back (or it never did)`)
      held.splice(0).forEach((resume) => resume())
      return pending
    },
    restore: () => Object.assign(target, { [method]: original }),
  }
}
