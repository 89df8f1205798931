// A failed call to the gateway: the status and the message of the API's error envelope, shown as is.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** The message to show for anything a call threw. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.status === 0 ? error.message : `${error.status}: ${error.message}`
  return error instanceof Error ? error.message : String(error)
}
