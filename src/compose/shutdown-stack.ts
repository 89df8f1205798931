// Ordered shutdown for the parts of a running gateway. Each part registers how to close itself as soon
// as it has started, so closing runs in reverse start order and a start that fails half-way closes
// exactly what it had started.

/** Where a part registers its close() once it has started. */
export interface Shutdown {
  defer(part: string, close: () => unknown): void
}

export class ShutdownStack implements Shutdown {
  private readonly parts: { readonly part: string; readonly close: () => unknown }[] = []
  private closing: Promise<void> | null = null

  /** `onError` hears of every part whose close() failed; the parts after it are closed all the same. */
  constructor(private readonly onError: (part: string, error: unknown) => void) {}

  defer(part: string, close: () => unknown): void {
    if (this.closing !== null) throw new Error(`cannot start ${part}: shutdown has begun`)
    this.parts.push({ part, close })
  }

  /** Closes every registered part, last started first; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= this.closeAll()
    return this.closing
  }

  private async closeAll(): Promise<void> {
    for (const { part, close } of this.parts.toReversed()) {
      try {
        await close()
      } catch (error) {
        this.onError(part, error)
      }
    }
  }
}

/** Runs `start`; when it throws, closes what it had registered (in reverse) before the error propagates. */
export async function startOrUnwind<T>(shutdown: ShutdownStack, start: () => Promise<T>): Promise<T> {
  try {
    return await start()
  } catch (error) {
    await shutdown.close()
    throw error
  }
}
