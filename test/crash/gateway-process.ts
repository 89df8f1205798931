// A gateway as operators run it: the bundle `npm start` runs (scripts/build.mjs), as a child process
// with only the environment it is given, which a test can stop (SIGTERM) or kill (SIGKILL).
import { spawn, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { bundle } from '../../scripts/build.mjs'

const root = join(import.meta.dirname, '..', '..')

export interface GatewayProcess {
  readonly url: string
  readonly exited: Promise<number | null>
  output(): string
  kill(): Promise<void>
  stop(): Promise<void>
}

/** Bundles the gateway into a file of this test process's own; `remove()` deletes it. */
export async function bundleGateway(name: string): Promise<{ readonly file: string; remove(): void }> {
  const file = join(root, 'dist', `${name}-${process.pid}.mjs`)
  await bundle('src/main.ts', file)
  return {
    file,
    remove: () => {
      rmSync(file, { force: true })
      rmSync(`${file}.map`, { force: true })
    },
  }
}

/** Starts `serve` and resolves once it prints where it listens (or throws with its output). */
export async function startGateway(
  bundleFile: string,
  cwd: string,
  env: Readonly<Record<string, string>>,
  startTimeoutMs = 60_000,
): Promise<GatewayProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', bundleFile, 'serve'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const deadline = Date.now() + startTimeoutMs
  while (!/listening on (http:\/\/\S+)/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null) {
      child.kill('SIGKILL')
      throw new Error(`the gateway did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  const signal = async (name: 'SIGKILL' | 'SIGTERM'): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name)
    await exited
  }
  return {
    url: /listening on (http:\/\/\S+)/.exec(output)![1]!,
    exited,
    output: () => output,
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  }
}
