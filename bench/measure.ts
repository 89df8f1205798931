// One measurement: a load shape against one server for a window, with the server's own CPU time over
// exactly that window (read through the child protocol when the warm-up ends and when the load stops).
import type { BenchChild, ProcessUsage } from './child-process.ts'
import { createPool, runLoad, type LoadShape, type RequestSpec } from './load.ts'
import { targetFigures, type LoopThreadTime, type TargetFigures } from './report.ts'

export interface Measured {
  readonly figures: TargetFigures
  readonly firstError?: string
}

/** `server` null measures the upstream directly (`origin` given, no CPU figure). */
export async function measureTarget(
  origin: string,
  server: BenchChild | null,
  spec: RequestSpec,
  shape: LoadShape,
  warmupMs: number,
  durationMs: number,
): Promise<Measured> {
  const pool = createPool(origin, shape)
  let before: ProcessUsage | undefined
  const result = await runLoad(pool, spec, shape, warmupMs, durationMs, async () => {
    if (server !== null) before = await server.usage()
  })
  const after = server === null ? undefined : await server.usage()
  await pool.close()
  const cpuMicros = before === undefined || after === undefined ? null : after.cpuMicros - before.cpuMicros
  const figures = targetFigures(result, cpuMicros, loopThreadDelta(before, after))
  return result.firstError === undefined
    ? { figures }
    : { figures, firstError: `${result.errors} errors, first: ${result.firstError}` }
}

/** The event-loop thread's CPU and run-queue wait over the window; null where either end could not read them. */
function loopThreadDelta(before: ProcessUsage | undefined, after: ProcessUsage | undefined): LoopThreadTime | null {
  const delta = (read: (usage: ProcessUsage) => number | null): number | null => {
    const start = before === undefined ? null : read(before)
    const end = after === undefined ? null : read(after)
    return start === null || end === null ? null : end - start
  }
  const cpuMicros = delta((usage) => usage.loopThreadCpuMicros)
  const waitMicros = delta((usage) => usage.loopThreadWaitMicros)
  return cpuMicros === null || waitMicros === null ? null : { cpuMicros, waitMicros }
}
