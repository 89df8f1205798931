// A worker thread with a SQLite connection of its own (the checkpointer, the write worker). Its source
// is CommonJS run with `eval`, so it loads better-sqlite3 from `workerData.driverPath` and needs no
// loader for TypeScript; it closes its connection and its port when sent 'close'.
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** Starts the worker, unref'd: an idle one must not keep a process alive that has nothing else to do. */
export function startSqliteThread(source: string, workerData: Record<string, unknown>): Worker {
  const driverPath = createRequire(import.meta.url).resolve('better-sqlite3')
  const worker = new Worker(source, { eval: true, workerData: { ...workerData, driverPath } })
  worker.unref()
  return worker
}

/** Asks the worker to close its connection and resolves when it has exited (`exited`: its 'exit' event). */
export async function closeSqliteThread(worker: Worker, exited: Promise<void>): Promise<void> {
  // Referenced again so the process waits for the worker to close its connection.
  worker.ref()
  worker.postMessage('close')
  await exited
}

/** Resolves at the worker's exit; take it while the worker runs (an exited worker sends no second event). */
export function exitOf(worker: Worker): Promise<void> {
  return new Promise((resolve) => worker.once('exit', () => resolve()))
}
