// The parent/child protocol of the benchmark. Each server runs in its own process so its CPU time and
// memory are its own: the child announces `ready` with its port and answers `usage` requests with its
// cumulative CPU time, RSS and event-loop delay, read inside the process.
import { fork, execFileSync, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks'

export interface ProcessUsage {
  /** user + system CPU time since start, microseconds. */
  readonly cpuMicros: number
  /** The part of `cpuMicros` on the event loop's own thread (Linux); null where it cannot be read. */
  readonly loopThreadCpuMicros: number | null
  /** Time the event loop's thread was ready to run but waited for the core (Linux); null where it cannot be read. */
  readonly loopThreadWaitMicros: number | null
  readonly rssBytes: number
  readonly maxRssBytes: number
  /** Event-loop delay since the previous usage request, milliseconds. */
  readonly loopDelayP50Ms: number
  readonly loopDelayP99Ms: number
  readonly loopDelayMaxMs: number
  /** Garbage-collection pauses since the previous usage request: the longest and their sum, ms. */
  readonly gcPauseMaxMs: number
  readonly gcPauseTotalMs: number
  readonly heapUsedBytes: number
}

type ParentMessage = { type: 'usage'; id: number } | { type: 'stop' }
type ChildMessage =
  { type: 'ready'; port: number; info?: Record<string, string> } | { type: 'usage'; id: number; usage: ProcessUsage }

/** How often the event-loop delay is sampled. */
const loopResolutionMs = 10

/**
 * monitorEventLoopDelay records the whole time between two of its timer's callbacks, so an idle loop
 * reads about `loopResolutionMs` (an idle process: p50 10.1 ms, min 10.07 ms at a 10 ms resolution);
 * the delay is what exceeds it.
 */
const loopDelayMs = (recordedNanos: number): number => Math.max(0, recordedNanos / 1e6 - loopResolutionMs)

/**
 * The calling thread's time on the CPU and its time ready to run but waiting for a CPU (the run queue),
 * both since it started, microseconds, from Linux's schedstat; null elsewhere.
 */
export function threadSchedstat(): { readonly cpuMicros: number; readonly waitMicros: number } | null {
  try {
    const [cpuNanos, waitNanos] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')
    return { cpuMicros: Number(cpuNanos) / 1000, waitMicros: Number(waitNanos) / 1000 }
  } catch {
    return null
  }
}

/** Child side: announce readiness and answer usage requests until told to stop. */
export function serveChildProtocol(port: number, stop: () => Promise<void>, info?: Record<string, string>): void {
  const loop = monitorEventLoopDelay({ resolution: loopResolutionMs })
  loop.enable()
  // GC pauses tell a long event-loop delay caused by the collector from one caused by blocking work.
  const gc = { maxMs: 0, totalMs: 0 }
  new PerformanceObserver((entries) => {
    for (const entry of entries.getEntries()) {
      gc.maxMs = Math.max(gc.maxMs, entry.duration)
      gc.totalMs += entry.duration
    }
  }).observe({ entryTypes: ['gc'] })
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') {
      void stop().finally(() => process.exit(0))
      return
    }
    const cpu = process.cpuUsage()
    const loopThread = threadSchedstat()
    const usage: ProcessUsage = {
      cpuMicros: cpu.user + cpu.system,
      loopThreadCpuMicros: loopThread?.cpuMicros ?? null,
      loopThreadWaitMicros: loopThread?.waitMicros ?? null,
      rssBytes: process.memoryUsage.rss(),
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      loopDelayP50Ms: loopDelayMs(loop.percentile(50)),
      loopDelayP99Ms: loopDelayMs(loop.percentile(99)),
      loopDelayMaxMs: loopDelayMs(loop.max),
      gcPauseMaxMs: gc.maxMs,
      gcPauseTotalMs: gc.totalMs,
      heapUsedBytes: process.memoryUsage().heapUsed,
    }
    loop.reset()
    gc.maxMs = 0
    gc.totalMs = 0
    process.send?.({ type: 'usage', id: message.id, usage } satisfies ChildMessage)
  })
  process.send?.({ type: 'ready', port, ...(info === undefined ? {} : { info }) } satisfies ChildMessage)
}

export interface BenchChild {
  readonly name: string
  readonly port: number
  readonly pid: number
  readonly info: Record<string, string>
  usage(): Promise<ProcessUsage>
  stop(): Promise<void>
}

export interface StartChildOptions {
  readonly args?: readonly string[]
  readonly env?: Record<string, string>
  /** CPU core to pin the process to (with taskset, when installed). */
  readonly core?: number
  readonly execArgv?: readonly string[]
  /** Node's own arguments, before `execArgv`; the benchmark's (`--import tsx`) by default. */
  readonly nodeArgs?: readonly string[]
  /** Discard the child's stdout (a gateway logging at info writes its access lines there). */
  readonly quiet?: boolean
  /** Run Node through another program (valgrind): its path, and its arguments ending with Node's path. */
  readonly wrapper?: { readonly execPath: string; readonly args: readonly string[] }
}

export async function startChild(name: string, script: string, options: StartChildOptions = {}): Promise<BenchChild> {
  const child = fork(script, [...(options.args ?? [])], {
    env: { ...process.env, ...options.env },
    execArgv: [
      ...(options.wrapper?.args ?? []),
      ...(options.nodeArgs ?? process.execArgv),
      ...(options.execArgv ?? []),
    ],
    ...(options.wrapper === undefined ? {} : { execPath: options.wrapper.execPath }),
    stdio: ['ignore', options.quiet === true ? 'ignore' : 'inherit', 'inherit', 'ipc'],
  })
  const ready = await waitForReady(name, child)
  if (options.core !== undefined && child.pid !== undefined) pinToCore(child.pid, options.core)
  let nextId = 0
  const pending = new Map<number, (usage: ProcessUsage) => void>()
  child.on('message', (message: ChildMessage) => {
    if (message.type === 'usage') {
      pending.get(message.id)?.(message.usage)
      pending.delete(message.id)
    }
  })
  return {
    name,
    port: ready.port,
    pid: child.pid ?? 0,
    info: ready.info ?? {},
    usage: () =>
      new Promise((resolve) => {
        const id = nextId++
        pending.set(id, resolve)
        child.send({ type: 'usage', id } satisfies ParentMessage)
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.send({ type: 'stop' } satisfies ParentMessage)
      }),
  }
}

function waitForReady(name: string, child: ChildProcess): Promise<Extract<ChildMessage, { type: 'ready' }>> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null): void =>
      reject(new Error(`${name} exited with code ${code} before it was ready`))
    child.once('exit', onExit)
    child.on('message', (message: ChildMessage) => {
      if (message.type !== 'ready') return
      child.off('exit', onExit)
      resolve(message)
    })
  })
}

export function hasTaskset(): boolean {
  return existsSync('/usr/bin/taskset') || existsSync('/bin/taskset')
}

/** Pins a process (all its threads) to one core; a no-op without taskset. */
export function pinToCore(pid: number, core: number): void {
  if (!hasTaskset()) return
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' })
}
