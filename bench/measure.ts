// One measurement: a load shape against one server for a window, with the server's own CPU time over
// exactly that window (read through the child protocol when the warm-up ends and when the load stops).
import type { BenchChild } from './child-process.ts'
import { createPool, runLoad, type LoadShape, type RequestSpec } from './load.ts'
import { targetFigures, type TargetFigures } from './report.ts'

export interface Measured {
  readonly figures: TargetFigures
  readonly firstError?: string
}

/** `server` null measures the upstream directly (`origin` given, no CPU figure). */
export async function measureTarget(origin: string, server: BenchChild | null, spec: RequestSpec, shape: LoadShape, warmupMs: number, durationMs: number): Promise<Measured> {
  const pool = createPool(origin, shape)
  let before: number | undefined
  const result = await runLoad(pool, spec, shape, warmupMs, durationMs, async () => {
    if (server !== null) before = (await server.usage()).cpuMicros
  })
  const after = server === null ? undefined : (await server.usage()).cpuMicros
  await pool.close()
  const cpuMicros = before === undefined || after === undefined ? null : after - before
  const figures = targetFigures(result, cpuMicros)
  return result.firstError === undefined ? { figures } : { figures, firstError: `${result.errors} errors, first: ${result.firstError}` }
}
