// The logger fastify gives each request (`request.log`, `reply.log`): the app logger with the request
// id bound. pino builds a child logger for every request (bindings serialized and redacted, level
// methods set up), yet almost every request logs only its access line, which names the request id
// itself (see metrics.ts). So the child is built the first time something else logs for the request;
// its lines are the same as those of a child built up front.
import type { FastifyBaseLogger } from 'fastify'
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString } from 'pino'

type LevelMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

export class DeferredRequestLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger
  readonly #bindings: Bindings
  readonly #options: ChildLoggerOptions
  #child: FastifyBaseLogger | null = null

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent
    this.#bindings = bindings
    this.#options = options
  }

  get level(): LevelWithSilentOrString {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level
  }

  set level(level: LevelWithSilentOrString) {
    this.#logger().level = level
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args)
  }

  error(...args: unknown[]): void {
    this.#log('error', args)
  }

  warn(...args: unknown[]): void {
    this.#log('warn', args)
  }

  info(...args: unknown[]): void {
    this.#log('info', args)
  }

  debug(...args: unknown[]): void {
    this.#log('debug', args)
  }

  trace(...args: unknown[]): void {
    this.#log('trace', args)
  }

  silent(...args: unknown[]): void {
    this.#log('silent', args)
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options)
  }

  #log(method: LevelMethod, args: unknown[]): void {
    const logger = this.#logger()
    ;(logger[method] as (...args: unknown[]) => void).apply(logger, args)
  }

  #logger(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options)
    return this.#child
  }
}

/** fastify's `childLoggerFactory`: a DeferredRequestLogger per request. */
export function deferredRequestLoggers(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new DeferredRequestLogger(logger, bindings, options)
}
