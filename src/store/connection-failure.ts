// Tells a lost or refused store connection apart from other failures, so the HTTP boundary can answer
// 503 ("retry shortly") instead of 500. Looks through `cause` chains (drivers and kysely wrap errors).

const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
// PostgreSQL SQLSTATE: class 08 is "connection exception"; 57P01-57P03 are shutdowns and "cannot connect now".
const postgresStates = new Set(['57P01', '57P02', '57P03'])
const driverMessages = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error/,
  /Cannot use a pool after calling end/,
]

export function isConnectionFailure(error: unknown): boolean {
  for (
    let current: unknown = error, depth = 0;
    current instanceof Error && depth < 5;
    current = current.cause, depth++
  ) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && (socketCodes.has(code) || postgresStates.has(code) || /^08[0-9A-Z]{3}$/.test(code)))
      return true
    if (driverMessages.some((pattern) => pattern.test(current instanceof Error ? current.message : ''))) return true
    if (current instanceof AggregateError && current.errors.some((inner) => isConnectionFailure(inner))) return true
  }
  return false
}
