// Bounds an operation: after `ms` it is answered with 408 (retryable) while the work itself finishes
// in the background.
import { GatewayError } from '../../domain/errors.ts'

export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new GatewayError('timeout', `${what} timed out after ${ms / 1000} seconds; try again`, {
            metadata: { reason: 'timeout', retryable: true },
          }),
        ),
      ms,
    )
  })
  try {
    return await Promise.race([work, deadline])
  } finally {
    clearTimeout(timer)
  }
}
