// One line that says why `serve` could not start and what to change. The process exits non-zero after
// printing it, so a supervisor (systemd, Docker, Kubernetes) sees the failure instead of a live process
// that does not listen.

/** Why listening failed, by the system error code, and what the operator can change. */
const listenFailures: Readonly<Record<string, (names: ListenSettings) => string>> = {
  EADDRINUSE: ({ port }) => `the port is in use (EADDRINUSE); set ${port} or stop the other process`,
  EACCES: ({ port }) => `permission denied (EACCES); ports below 1024 need privileges: set ${port} to 1024 or above`,
  EADDRNOTAVAIL: ({ host }) =>
    `the address is not one of this machine’s (EADDRNOTAVAIL); set ${host} to 0.0.0.0 or a local address`,
  ENOTFOUND: ({ host }) =>
    `${host} does not resolve (ENOTFOUND); set ${host} to an IP address or a name this machine resolves`,
}

export interface ListenAddress {
  readonly host: string
  readonly port: number
}

/** Where the operator sets the host and port of a listener (HOST and PORT for the main one). */
export interface ListenSettings {
  readonly host: string
  readonly port: string
}

/** `switchyard: cannot listen on HOST:PORT: ...` for an error thrown by listen(). */
export function describeListenFailure(
  error: unknown,
  address: ListenAddress,
  settings: ListenSettings = { host: 'HOST', port: 'PORT' },
): string {
  const reason = listenFailures[errorCode(error) ?? '']?.(settings) ?? oneLine(error)
  return `switchyard: cannot listen on ${address.host}:${address.port}: ${reason}`
}

/** `switchyard: cannot start: ...` for any other failure while the gateway starts (store, Redis, ...). */
export function describeStartFailure(error: unknown): string {
  return `switchyard: cannot start: ${oneLine(error)}`
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined
  return typeof error.code === 'string' ? error.code : undefined
}

/** The error's message on one line; an AggregateError (a refused connection to every address) lists its parts. */
function oneLine(error: unknown): string {
  const parts =
    error instanceof AggregateError && error.errors.length > 0
      ? [...new Set(error.errors.map((part: unknown) => messageOf(part)))]
      : [messageOf(error)]
  return parts.join('; ').replace(/\s*\n\s*/g, '; ')
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  if (error.message !== '') return error.message
  return errorCode(error) ?? error.name
}
