// WAL checkpoints off the event loop. better-sqlite3 runs every statement on the calling thread, and
// SQLite's automatic checkpoint runs inside whichever commit finds the WAL past its threshold: that
// commit then copies megabytes into the database file and waits for fsync, stalling every request for
// tens to hundreds of milliseconds. A worker thread with its own connection checkpoints every
// `intervalMs` instead (PASSIVE: it never waits for the writer), so the main connection's automatic
// checkpoint, kept only as a safety net with a high threshold, is almost never reached.
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** Pages the main connection may let the WAL grow to before it checkpoints itself (40 MB at 4 KiB). */
export const fallbackAutoCheckpointPages = 10_000

const workerSource = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driverPath)
const database = new Database(workerData.filename)
database.pragma('busy_timeout = 5000')
const timer = setInterval(() => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)')
  } catch (error) {
    parentPort.postMessage({ error: String(error) })
  }
}, workerData.intervalMs)
parentPort.on('message', () => {
  clearInterval(timer)
  database.close()
  parentPort.close()
})
`

export interface Checkpointer {
  close(): Promise<void>
}

export function startCheckpointer(filename: string, intervalMs = 1000, onError: (message: string) => void = () => undefined): Checkpointer {
  const driverPath = createRequire(import.meta.url).resolve('better-sqlite3')
  const worker = new Worker(workerSource, { eval: true, workerData: { filename, intervalMs, driverPath } })
  worker.on('message', (message: { error?: string }) => {
    if (message.error !== undefined) onError(message.error)
  })
  worker.on('error', (error) => onError(String(error)))
  // The worker must not keep a process alive that has nothing else to do.
  worker.unref()
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  return {
    async close() {
      // Referenced again so the process waits for the worker to close its connection.
      worker.ref()
      worker.postMessage('close')
      await exited
    },
  }
}
