// Counting a server's user-space instructions with valgrind's callgrind: the figure that does not move
// with the machine's load. A target runs under `valgrind --tool=callgrind --instr-atstart=no`, so it
// runs uninstrumented (only translated) until a window opens: `callgrind_control -i on` and `-z`, the
// requests, then `callgrind_control -d` writes a dump whose `totals:` line is the window's count.
// vgdb, which callgrind_control drives, names its pipes after the `HOST` environment variable, so the
// target and every callgrind_control call get the same HOST.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** Where the dumps go: one file per window, `callgrind.<pid>.<n>`. */
export const callgrindDirectory = resolve('bench-results/callgrind')
const host = 'switchyard-bench'

export interface CallgrindLaunch {
  readonly execPath: string
  /** valgrind's own arguments, the Node binary and `--expose-gc`; the child's Node arguments follow. */
  readonly wrapperArgs: readonly string[]
  readonly env: Record<string, string>
}

export function hasValgrind(): boolean {
  return existsSync('/usr/bin/valgrind') && existsSync('/usr/bin/callgrind_control')
}

/**
 * How to start a benchmark child under callgrind, instrumentation off until a window opens. `nodeFlags`
 * (`--callgrind-node-flags`, none by default) follow `--expose-gc`, for V8 experiments on the measurement.
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
      `--callgrind-out-file=${join(callgrindDirectory, 'callgrind.%p')}`,
      `--log-file=${join(callgrindDirectory, 'valgrind.%p.log')}`,
      process.execPath,
      // Each window starts after a full collection (BenchChild.collect), so no window inherits another's garbage.
      '--expose-gc',
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

/** Dumps the window opened by `openWindow`, turns instrumentation off again, returns the instructions counted and the dump's path. */
export async function closeWindow(pid: number): Promise<{ readonly instructions: number; readonly file: string }> {
  const before = new Set(dumpsOf(pid))
  control(pid, '-d')
  control(pid, '-i', 'off')
  // callgrind_control returns once the target acknowledged; the file is written by then, but look a few times.
  for (let attempt = 0; attempt < 50; attempt++) {
    const fresh = dumpsOf(pid).find((name) => !before.has(name))
    if (fresh !== undefined) {
      const file = join(callgrindDirectory, fresh)
      const totals = /^totals:\s+(\d+)/m.exec(readFileSync(file, 'utf8'))
      if (totals !== null) return { instructions: Number(totals[1]), file }
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`bench: callgrind wrote no dump for process ${pid} in ${callgrindDirectory}`)
}
