// Counting a server's user-space instructions with valgrind's callgrind: the figure that does not move
// with the machine's load. A target runs under `valgrind --tool=callgrind --instr-atstart=no`, so it
// runs uninstrumented (only translated) until a window opens: `callgrind_control -i on` and `-z`, the
// requests, then `callgrind_control -d` writes a dump whose `totals:` line is the window's count.
// vgdb, which callgrind_control drives, names its pipes after the `HOST` environment variable, so the
// target and every callgrind_control call get the same HOST.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/** Where the dumps go: one file per window, `callgrind.<pid>.<n>`. */
export const callgrindDirectory = resolve('bench-results/callgrind')
const host = 'switchyard-bench'

export interface CallgrindLaunch {
  readonly execPath: string
  /** valgrind's own arguments and the Node binary; the child's Node arguments follow. */
  readonly wrapperArgs: readonly string[]
  readonly env: Record<string, string>
}

export function hasValgrind(): boolean {
  return existsSync('/usr/bin/valgrind') && existsSync('/usr/bin/callgrind_control')
}

/**
 * How to start a benchmark child under callgrind, instrumentation off until a window opens. `nodeFlags`
 * (`--callgrind-node-flags`, none by default) come first, for V8 experiments on the measurement.
 */
export function callgrindLaunch(nodeFlags: readonly string[] = []): CallgrindLaunch {
  mkdirSync(callgrindDirectory, { recursive: true })
  return {
    execPath: '/usr/bin/valgrind',
    wrapperArgs: [
      '--tool=callgrind',
      '--instr-atstart=no',
      // V8 writes machine code into memory it then runs: every such write must drop valgrind's translations.
      '--smc-check=all-non-file',
      // One dump per thread: V8's helper threads (closeWindow) are counted apart from the threads that serve.
      '--separate-threads=yes',
      `--callgrind-out-file=${join(callgrindDirectory, 'callgrind.%p')}`,
      `--log-file=${join(callgrindDirectory, 'valgrind.%p.log')}`,
      process.execPath,
      ...nodeFlags,
    ],
    env: { HOST: host },
  }
}

function control(pid: number, ...args: string[]): void {
  execFileSync('/usr/bin/callgrind_control', [...args, String(pid)], {
    env: { ...process.env, HOST: host },
    stdio: 'ignore',
  })
}

/** Starts counting from zero in the process `pid` (a child started with `callgrindLaunch`). */
export function openWindow(pid: number): void {
  control(pid, '-i', 'on')
  control(pid, '-z')
}

const dumpsOf = (pid: number): string[] =>
  readdirSync(callgrindDirectory).filter((name) => name.startsWith(`callgrind.${pid}.`))

export interface WindowCount {
  /** Instructions of the threads that serve: the event loop, libuv's pool, Node workers (SQLite's writer). */
  readonly instructions: number
  /**
   * Instructions of V8's helper threads (node's PlatformWorkerThread): background TurboFan jobs and the
   * concurrent and parallel parts of the collector. Under valgrind they run whenever its scheduler lets
   * them, so their share of a window moved 4-36% between windows of one run; they are reported, not counted.
   */
  readonly helperInstructions: number
  /** The event-loop thread's dump (callgrind_annotate reads it). */
  readonly file: string
}

const totalOf = (text: string): number | null => {
  const totals = /^totals:\s+(\d+)/m.exec(text)
  return totals === null ? null : Number(totals[1])
}

/** Dumps the window opened by `openWindow`, turns instrumentation off again, returns what it counted per kind of thread. */
export async function closeWindow(pid: number): Promise<WindowCount> {
  const before = new Set(dumpsOf(pid))
  control(pid, '-d')
  control(pid, '-i', 'off')
  // callgrind_control returns once the target acknowledged; the files are written by then, but look a few times.
  for (let attempt = 0; attempt < 50; attempt++) {
    const fresh = dumpsOf(pid)
      .filter((name) => !before.has(name))
      .map((name) => ({ name, text: readFileSync(join(callgrindDirectory, name), 'utf8') }))
    const main = fresh.find((dump) => dump.name.endsWith('-01'))
    if (main !== undefined && totalOf(main.text) !== null) {
      let instructions = 0
      let helperInstructions = 0
      for (const dump of fresh) {
        const total = totalOf(dump.text) ?? 0
        if (dump.text.includes('PlatformWorkerThread')) helperInstructions += total
        else instructions += total
      }
      return { instructions, helperInstructions, file: join(callgrindDirectory, main.name) }
    }
    await sleep(100)
  }
  throw new Error(`bench: callgrind wrote no dump for process ${pid} in ${callgrindDirectory}`)
}

/** User plus system CPU time of process `pid` so far, in clock ticks (Linux's /proc/<pid>/stat). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

const ticksPerSecond = 100
const quietIntervalMs = 2000

/**
 * Waits until the process `pid` is quiet: V8 compiles optimized code on background threads, and under
 * valgrind, which runs one thread at a time ~50x slower, the jobs a warm-up queued take tens of seconds.
 * Quiet is an interval of `quietIntervalMs` in which it used at most `quietShare` of a core, or two in a
 * row within two points of each other below half a core (an idle gateway's timers keep it above zero).
 * Returns the seconds waited and the last interval's share, or null after `maxMs` without quiet.
 */
export async function waitUntilQuiet(
  pid: number,
  quietShare = 0.05,
  maxMs = 300_000,
): Promise<{ readonly seconds: number; readonly share: number } | null> {
  let previous = Number.POSITIVE_INFINITY
  for (let waited = 0; waited < maxMs; waited += quietIntervalMs) {
    const before = cpuTicks(pid)
    await sleep(quietIntervalMs)
    const share = (cpuTicks(pid) - before) / ticksPerSecond / (quietIntervalMs / 1000)
    const seconds = (waited + quietIntervalMs) / 1000
    if (share <= quietShare || (share < 0.5 && Math.abs(share - previous) <= 0.02)) return { seconds, share }
    previous = share
  }
  return null
}
