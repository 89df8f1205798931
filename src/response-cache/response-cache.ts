// The response cache as the call core uses it: look an answer up by its key, save a successful one.
// It counts hits, misses and the bytes it stores; it skips answers larger than the entry bound; and it
// fails open (a store that errs is a miss, or a save not made, logged), since a cache never decides
// whether a call is answered.
import { Counter, type Registry } from 'prom-client'
import type { ResponseCacheStore } from './response-cache-store.ts'

/** A cached answer: the generation that produced it and what the entry point needs to answer again. */
export interface CachedAnswer {
  readonly sourceGenerationId: string
  /** The entry point's own JSON-safe form of the answer (canonical result, stream events, vectors). */
  readonly payload: unknown
}

export interface ResponseCacheLogger {
  warn(details: object, message: string): void
}

export class ResponseCache {
  readonly #lookups: Counter<'result'>
  readonly #storedBytes: Counter
  readonly #skipped: Counter

  constructor(
    readonly store: ResponseCacheStore,
    readonly maxEntryBytes: number,
    readonly logger: ResponseCacheLogger,
    registry: Registry,
  ) {
    const registers = [registry]
    this.#lookups = new Counter({
      name: 'switchyard_response_cache_lookups_total',
      help: 'Response cache lookups by result (hit, miss); a store error counts as a miss',
      labelNames: ['result'] as const,
      registers,
    })
    this.#storedBytes = new Counter({
      name: 'switchyard_response_cache_stored_bytes_total',
      help: 'Bytes of answers written to the response cache since start',
      registers,
    })
    this.#skipped = new Counter({
      name: 'switchyard_response_cache_too_large_total',
      help: 'Successful answers not cached because they exceed cache.max_entry_bytes',
      registers,
    })
  }

  async lookup(key: string): Promise<CachedAnswer | null> {
    let text: string | null = null
    try {
      text = await this.store.get(key)
    } catch (error) {
      this.logger.warn({ err: error }, 'the response cache could not be read; answering as a miss')
    }
    const found = text === null ? null : parseEntry(text)
    this.#lookups.inc({ result: found === null ? 'miss' : 'hit' })
    return found
  }

  async save(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void> {
    const text = JSON.stringify({ source: answer.sourceGenerationId, payload: answer.payload })
    const bytes = Buffer.byteLength(text)
    if (bytes > this.maxEntryBytes) {
      this.#skipped.inc()
      return
    }
    try {
      await this.store.set(key, text, ttlSeconds)
      this.#storedBytes.inc(bytes)
    } catch (error) {
      this.logger.warn({ err: error }, 'the response cache could not be written; the answer is not cached')
    }
  }
}

function parseEntry(text: string): CachedAnswer | null {
  const entry: unknown = JSON.parse(text)
  if (typeof entry !== 'object' || entry === null || !('source' in entry) || !('payload' in entry)) return null
  return typeof entry.source === 'string' ? { sourceGenerationId: entry.source, payload: entry.payload } : null
}
