// What a callgrind window holds besides the steady state: the share of its instructions spent in V8's
// compilers (TurboFan, Maglev, Sparkplug, the parser and bytecode generator) and in its garbage
// collector, read from `callgrind_annotate`'s per-function totals. A window with a compiler share of
// more than a few percent measured a process still tiering up, not the cost of a request; a large GC
// share that differs between runs of the same code means a major collection fell into one window only.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface WindowShares {
  /** Fractions of the window's instructions, 0..1. */
  readonly compile: number
  readonly gc: number
}

const compilerFrame =
  /v8::internal::(?:compiler::|maglev::|baseline::|Compiler::|Parser|interpreter::BytecodeGenerator|OptimizingCompileDispatcher)/
const gcFrame =
  /v8::internal::(?:Scaveng|Marking|MarkCompact|ConcurrentMarking|Sweeper|Heap::|Evacuat|MemoryAllocator|MinorMarkCompact)|heap::base::|IterateAndScavenge|ScavengeVisitor|MarkingVisitor/

/** One line of callgrind_annotate's function list: `1,234 ( 0.10%)  file:function [object]`. */
const functionLine = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$/

export async function windowShares(dump: string): Promise<WindowShares> {
  const { stdout } = await run('/usr/bin/callgrind_annotate', ['--threshold=100', dump], {
    maxBuffer: 256 * 1024 * 1024,
  })
  let total = 0
  let compile = 0
  let gc = 0
  for (const line of stdout.split('\n')) {
    const match = functionLine.exec(line)
    if (match === null) continue
    const instructions = Number(match[1]!.replaceAll(',', ''))
    const name = match[2]!
    if (name.includes('PROGRAM TOTALS')) {
      total = instructions
      continue
    }
    if (compilerFrame.test(name)) compile += instructions
    else if (gcFrame.test(name)) gc += instructions
  }
  return total === 0 ? { compile: 0, gc: 0 } : { compile: compile / total, gc: gc / total }
}

export const formatShares = (shares: WindowShares): string =>
  `${(shares.compile * 100).toFixed(1)}% / ${(shares.gc * 100).toFixed(1)}%`
