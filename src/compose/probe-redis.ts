// The start-up check of REDIS_URL: one dedicated connection that must answer PING within a few bounded
// attempts, so `serve` exits with one clear line instead of waiting forever on a Redis that is not
// there. Only this probe gives up; the clients the gateway keeps reconnect on their own after a start.
import { Redis } from 'ioredis'

export interface RedisProbeOptions {
  /** Connection attempts before giving up (each waits at most `connectTimeoutMs` to connect). */
  readonly attempts?: number
  readonly connectTimeoutMs?: number
  /** Bounds the whole probe, also against a server that accepts connections and never answers. */
  readonly deadlineMs?: number
}

/** Thrown when Redis did not answer at start-up; its message is the operator's whole explanation. */
export class RedisUnreachableError extends Error {
  constructor(url: string, reason: string) {
    super(
      `Redis at REDIS_URL (${withoutPassword(url)}) did not answer: ${reason}; ` +
        'start Redis or correct REDIS_URL (unset it to run a single instance with counters in memory)',
    )
    this.name = 'RedisUnreachableError'
  }
}

/** Resolves when Redis at `url` answers PING; throws RedisUnreachableError after the bounded attempts. */
export async function probeRedis(url: string, options: RedisProbeOptions = {}): Promise<void> {
  const attempts = options.attempts ?? 3
  let lastError: unknown
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: options.connectTimeoutMs ?? 2_000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (times) => (times < attempts ? 250 * times : null),
    // A socket that failed never emits 'close', so disconnect() would keep a 2 s timer holding the exit.
    disconnectTimeout: 100,
  })
  client.on('error', (error: unknown) => {
    if (!isClientBookkeeping(error)) lastError = error
  })
  const deadlineMs = options.deadlineMs ?? 10_000
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${deadlineMs / 1000} s`)), deadlineMs)
  })
  try {
    await Promise.race([readyOrEnded(client).then(() => client.ping()), deadline])
  } catch (error) {
    throw new RedisUnreachableError(url, reasonOf(lastError ?? error))
  } finally {
    clearTimeout(timer)
    client.disconnect()
  }
}

/** Waits for the client to be ready; rejects once it stops reconnecting (its retries are spent). */
function readyOrEnded(client: Redis): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve())
    client.once('end', () => reject(new Error('the connection closed before Redis answered')))
    // connect() rejects at the first failed attempt although the retry strategy tries again: 'end' decides.
    client.connect().catch(() => undefined)
  })
}

/** ioredis's own notes on commands it could not send: the socket's error, recorded before, is the cause. */
function isClientBookkeeping(error: unknown): boolean {
  return error instanceof Error && /^(Stream isn't writeable|Connection is closed)/.test(error.message)
}

function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0)
    return [...new Set(error.errors.map((part: unknown) => reasonOf(part)))].join('; ')
  if (!(error instanceof Error)) return String(error)
  if (error.message !== '') return error.message.replace(/\s*\n\s*/g, '; ')
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined
  return code ?? error.name
}

/** The URL as the operator wrote it, without its password (a URL that does not parse is not shown). */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'an unparsable URL'
  }
}
