// WAL checkpoints off the event loop. better-sqlite3 runs every statement on the calling thread, and
// SQLite's automatic checkpoint runs inside whichever commit finds the WAL past its threshold: that
// commit then copies megabytes into the database file and waits for fsync, stalling every request for
// tens to hundreds of milliseconds. A worker thread with its own connection checkpoints every
// `intervalMs` instead (PASSIVE: it never waits for the writer), so the main connection's automatic
// checkpoint, kept only as a safety net with a high threshold, is almost never reached.
import { closeSqliteThread, exitOf, startSqliteThread } from './sqlite-thread.ts'

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

export function startCheckpointer(
  filename: string,
  intervalMs = 1000,
  onError: (message: string) => void = () => undefined,
): Checkpointer {
  const worker = startSqliteThread(workerSource, { filename, intervalMs })
  const exited = exitOf(worker)
  worker.on('message', (message: { error?: string }) => {
    if (message.error !== undefined) onError(message.error)
  })
  worker.on('error', (error) => onError(String(error)))
  return { close: () => closeSqliteThread(worker, exited) }
}
