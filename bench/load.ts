// The load generator (undici): closed loop (N connections, each sends its next request when the last
// one is answered) and open loop (a fixed arrival rate; latency counts from the scheduled send time, so
// a stalled server is not hidden by coordinated omission). Each request records its latency and its
// time to first byte: the first body chunk of a stream, the headers of a plain answer.
import { Pool } from 'undici'

export interface RequestSpec {
  readonly path: string
  readonly headers: Record<string, string>
  readonly body: string
  readonly stream: boolean
  /** Response headers an answer must carry to count (e.g. the cache status of a cache-hit scenario). */
  readonly expectHeaders?: Record<string, string>
}

export type LoadShape =
  { readonly kind: 'closed'; readonly connections: number } | { readonly kind: 'open'; readonly rate: number }

export interface LoadResult {
  readonly completed: number
  readonly errors: number
  readonly elapsedMs: number
  readonly latenciesMs: number[]
  readonly ttfbMs: number[]
  readonly firstError?: string
}

class Recorder {
  completed = 0
  errors = 0
  firstError: string | undefined
  readonly latenciesMs: number[] = []
  readonly ttfbMs: number[] = []
}

async function sendOne(
  pool: Pool,
  spec: RequestSpec,
  startedAt: number,
  recorder: Recorder,
  record: boolean,
): Promise<void> {
  try {
    const response = await pool.request({ method: 'POST', path: spec.path, headers: spec.headers, body: spec.body })
    let firstByteAt = spec.stream ? 0 : performance.now()
    let bytes = 0
    for await (const chunk of response.body) {
      if (firstByteAt === 0) firstByteAt = performance.now()
      bytes += (chunk as Buffer).length
    }
    const finishedAt = performance.now()
    if (response.statusCode !== 200 || bytes === 0) throw new Error(`status ${response.statusCode}`)
    for (const [name, value] of Object.entries(spec.expectHeaders ?? {})) {
      if (response.headers[name] !== value) throw new Error(`${name}: ${String(response.headers[name])}, not ${value}`)
    }
    if (!record) return
    recorder.completed++
    recorder.latenciesMs.push(finishedAt - startedAt)
    recorder.ttfbMs.push(firstByteAt - startedAt)
  } catch (error) {
    recorder.errors++
    recorder.firstError ??= error instanceof Error ? error.message : String(error)
  }
}

export function createPool(origin: string, shape: LoadShape): Pool {
  return new Pool(origin, {
    connections: shape.kind === 'closed' ? shape.connections : 512,
    pipelining: 1,
    keepAliveTimeout: 60_000,
  })
}

/** Runs `shape` for `durationMs` after `warmupMs` of unrecorded load; `onMeasureStart` marks the window. */
export async function runLoad(
  pool: Pool,
  spec: RequestSpec,
  shape: LoadShape,
  warmupMs: number,
  durationMs: number,
  onMeasureStart: () => Promise<void>,
): Promise<LoadResult> {
  if (warmupMs > 0) await drive(pool, spec, shape, warmupMs, new Recorder(), false)
  await onMeasureStart()
  const recorder = new Recorder()
  const startedAt = performance.now()
  await drive(pool, spec, shape, durationMs, recorder, true)
  const result: LoadResult = {
    completed: recorder.completed,
    errors: recorder.errors,
    elapsedMs: performance.now() - startedAt,
    latenciesMs: recorder.latenciesMs,
    ttfbMs: recorder.ttfbMs,
  }
  return recorder.firstError === undefined ? result : { ...result, firstError: recorder.firstError }
}

function drive(
  pool: Pool,
  spec: RequestSpec,
  shape: LoadShape,
  durationMs: number,
  recorder: Recorder,
  record: boolean,
): Promise<void> {
  return shape.kind === 'closed'
    ? driveClosed(pool, spec, shape.connections, durationMs, recorder, record)
    : driveOpen(pool, spec, shape.rate, durationMs, recorder, record)
}

async function driveClosed(
  pool: Pool,
  spec: RequestSpec,
  connections: number,
  durationMs: number,
  recorder: Recorder,
  record: boolean,
): Promise<void> {
  const deadline = performance.now() + durationMs
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) await sendOne(pool, spec, performance.now(), recorder, record)
  }
  await Promise.all(Array.from({ length: connections }, worker))
}

async function driveOpen(
  pool: Pool,
  spec: RequestSpec,
  rate: number,
  durationMs: number,
  recorder: Recorder,
  record: boolean,
): Promise<void> {
  const startedAt = performance.now()
  const total = Math.floor((rate * durationMs) / 1000)
  const inFlight: Promise<void>[] = []
  let issued = 0
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const due = Math.min(total, Math.floor(((performance.now() - startedAt) * rate) / 1000))
      for (; issued < due; issued++)
        inFlight.push(sendOne(pool, spec, startedAt + (issued * 1000) / rate, recorder, record))
      if (issued >= total) resolve()
      else setTimeout(tick, 1)
    }
    tick()
  })
  await Promise.all(inFlight)
}

/** Sends exactly `count` requests over `connections` connections (closed loop), however long that takes. */
export async function sendCount(
  pool: Pool,
  spec: RequestSpec,
  connections: number,
  count: number,
): Promise<Pick<LoadResult, 'completed' | 'errors' | 'firstError'>> {
  const recorder = new Recorder()
  let issued = 0
  const worker = async (): Promise<void> => {
    while (issued < count) {
      issued++
      await sendOne(pool, spec, performance.now(), recorder, true)
    }
  }
  await Promise.all(Array.from({ length: connections }, worker))
  const result = { completed: recorder.completed, errors: recorder.errors }
  return recorder.firstError === undefined ? result : { ...result, firstError: recorder.firstError }
}
