// Backpressure for a streamed answer: after a write the client's socket could not take at once, wait
// until it drains, closes, or the request is aborted (a client that left never drains).
import type { Writable } from 'node:stream'
import type { CancelSignal } from '../../domain/cancellation.ts'

export function drained(body: Writable, signal: CancelSignal): Promise<void> {
  if (signal.aborted || body.destroyed || body.writableEnded) return Promise.resolve()
  return new Promise((resolve) => {
    const done = (): void => {
      body.off('drain', done)
      body.off('close', done)
      signal.removeEventListener('abort', done)
      resolve()
    }
    body.on('drain', done)
    body.on('close', done)
    signal.addEventListener('abort', done)
  })
}
