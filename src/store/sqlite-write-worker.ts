// The write-behind batches of a SQLite file store, committed by a worker thread with its own
// connection. better-sqlite3 runs every statement on the calling thread, so on the main connection a
// flush of a few hundred generation records holds the event loop for several milliseconds in all
// (about a millisecond per slice), and a request that arrives meanwhile waits for the slice. Here the
// main thread only posts each slice's parameters (tens of microseconds) and the worker runs the
// statements. SQLite allows one writer at a time, and a write on the main connection that meets one of
// the worker's transactions waits in SQLite's busy handler, which sleeps on the event loop (1 ms, then
// longer). So the writes made many times a second all go through the worker (generation records,
// ledger rows, delivered counts), and the main connection keeps the others (management calls, the
// outbox, last-used marks, batch items' bookkeeping); one that meets a slice waits it out (1 ms at least).
import type { Worker } from 'node:worker_threads'
import { RejectedRows } from './rejected-rows.ts'
import { closeSqliteThread, exitOf, startSqliteThread } from './sqlite-thread.ts'
import type { WriteBehind, WriteStatement } from './write-behind.ts'

// A commit's message carries each statement as the number of its SQL text and its parameters; a text
// goes to the worker once, with the first commit that uses it (a text is a few kilobytes, and copying
// and hashing it on every commit cost as much as running its statement). A statement's parameters are
// passed to `run` as arguments: given one array, better-sqlite3 reads it element by element through
// V8's Object::Get (26 of binding's 64 K instructions per chat request).
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driverPath)
const database = new Database(workerData.filename)
for (const pragma of workerData.pragmas) database.pragma(pragma)
const texts = []
const prepared = []
function statement(textId) {
  return (prepared[textId] ??= database.prepare(texts[textId]))
}
const commit = database.transaction((statements) => {
  for (let index = 0; index < statements.length; index += 2) statement(statements[index]).run(...statements[index + 1])
})
parentPort.on('message', (message) => {
  if (message === 'close') {
    database.close()
    parentPort.close()
    return
  }
  for (let index = 0; index < message.texts.length; index += 2) texts[message.texts[index]] = message.texts[index + 1]
  try {
    commit.immediate(message.statements)
    parentPort.postMessage({ id: message.id })
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String(error && error.message), code: error && error.code })
  }
})
`

export interface SqliteWriteWorkerOptions {
  /** Pragmas the worker's connection runs when it opens (busy_timeout, synchronous, ...). */
  readonly pragmas: readonly string[]
}

interface Reply {
  readonly id: number
  readonly error?: string
  readonly code?: string
}

interface Waiting {
  resolve(): void
  reject(error: Error): void
}

/** Starts the worker on first use; a worker that exits unexpectedly fails its waiting commits and is replaced by the next one. */
export class SqliteWriteWorker implements WriteBehind {
  readonly rejectedRows = new RejectedRows()
  readonly #filename: string
  readonly #options: SqliteWriteWorkerOptions
  readonly #waiting = new Map<number, Waiting>()
  #worker: Worker | null = null
  /** The number of each SQL text sent to the current worker. */
  #textIds = new Map<string, number>()
  #failure: Error | null = null
  #nextId = 0
  #closed = false

  constructor(filename: string, options: SqliteWriteWorkerOptions) {
    this.#filename = filename
    this.#options = options
  }

  commit(statements: readonly WriteStatement[]): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the store is closed: no more writes'))
    if (statements.length === 0) return Promise.resolve()
    const worker = (this.#worker ??= this.#start())
    const id = ++this.#nextId
    const texts: (number | string)[] = []
    const numbered: unknown[] = []
    for (const { sql, parameters } of statements) {
      let textId = this.#textIds.get(sql)
      if (textId === undefined) {
        textId = this.#textIds.size
        this.#textIds.set(sql, textId)
        texts.push(textId, sql)
      }
      numbered.push(textId, parameters)
    }
    try {
      worker.postMessage({ id, texts, statements: numbered })
    } catch (error) {
      // A parameter that cannot be copied to the worker: nothing was sent, its texts included.
      for (let index = 1; index < texts.length; index += 2) this.#textIds.delete(texts[index] as string)
      return Promise.reject(error)
    }
    // A commit in progress keeps the process alive (an idle worker does not).
    if (this.#waiting.size === 0) worker.ref()
    return new Promise<void>((resolve, reject) => this.#waiting.set(id, { resolve, reject }))
  }

  async close(): Promise<void> {
    this.#closed = true
    const worker = this.#worker
    if (worker === null) return
    await closeSqliteThread(worker, exitOf(worker))
  }

  #start(): Worker {
    const worker = startSqliteThread(workerSource, { filename: this.#filename, pragmas: this.#options.pragmas })
    this.#textIds = new Map()
    worker.on('message', (reply: Reply) => this.#settle(worker, reply))
    worker.on('error', (error) => {
      this.#failure = error
    })
    worker.once('exit', () => {
      if (this.#worker === worker) this.#worker = null
      const failure = this.#failure ?? new Error('the SQLite write worker exited')
      this.#failure = null
      for (const waiting of this.#waiting.values()) waiting.reject(failure)
      this.#waiting.clear()
    })
    return worker
  }

  #settle(worker: Worker, reply: Reply): void {
    const waiting = this.#waiting.get(reply.id)
    if (waiting === undefined) return
    this.#waiting.delete(reply.id)
    if (this.#waiting.size === 0 && !this.#closed) worker.unref()
    if (reply.error === undefined) return waiting.resolve()
    waiting.reject(Object.assign(new Error(reply.error), reply.code === undefined ? {} : { code: reply.code }))
  }
}
