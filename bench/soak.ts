// Soak mode: a fixed arrival rate for many minutes, plain and streaming /responses and
// /chat/completions mixed, reporting the gateway's RSS and event-loop delay (measured inside the
// gateway process) per window, to catch leaks and stalls.
import type { BenchChild } from './child-process.ts'
import { createPool, runLoad, type RequestSpec } from './load.ts'
import { scenarios, type TargetName } from './scenarios.ts'
import { summarize } from './stats.ts'
import { megabytes as mb, saveResults } from './save-results.ts'

export interface SoakOptions {
  readonly minutes: number
  readonly rate: number
}

interface SoakWindow {
  readonly atSeconds: number
  readonly completed: number
  readonly errors: number
  readonly p99Ms: number
  readonly rssBytes: number
  readonly loopDelayP99Ms: number
  readonly loopDelayMaxMs: number
  readonly gcPauseMaxMs: number
  readonly heapUsedBytes: number
}

const windowMs = 10_000
/** The soak mixes the four chat-style scenarios (streaming and not), as its recorded figures did. */
const soakScenarios = scenarios.filter((scenario) =>
  ['responses', 'chat', 'responses-stream', 'chat-stream'].includes(scenario.name),
)
const headings = ['t (s)', 'req/s', 'errors', 'p99 ms', 'RSS MB', 'heap MB', 'loop p99 ms', 'loop max ms', 'gc max ms']
const widths = headings.map((heading) => Math.max(8, heading.length))

export async function runSoak(servers: Record<TargetName, BenchChild>, options: SoakOptions): Promise<void> {
  const origin = `http://127.0.0.1:${servers.gateway.port}`
  const shape = { kind: 'open', rate: options.rate / soakScenarios.length } as const
  const pools = soakScenarios.map(() => createPool(origin, shape))
  const requests: RequestSpec[] = soakScenarios.map((scenario) => scenario.request('gateway', servers.gateway.info))
  const windows: SoakWindow[] = []
  const totalWindows = Math.max(1, Math.round((options.minutes * 60_000) / windowMs))
  console.log(
    `soak: ${options.minutes} min at ${options.rate} req/s against the gateway, ${soakScenarios.map((scenario) => scenario.name).join(' + ')} in equal parts`,
  )
  console.log(headings.map((heading, position) => heading.padStart(widths[position] ?? 8)).join(' '))
  await servers.gateway.usage()
  for (let index = 0; index < totalWindows; index++) {
    const results = await Promise.all(
      pools.map((pool, position) => runLoad(pool, requests[position]!, shape, 0, windowMs, async () => {})),
    )
    const usage = await servers.gateway.usage()
    const latencies = results.flatMap((result) => result.latenciesMs)
    const window: SoakWindow = {
      atSeconds: ((index + 1) * windowMs) / 1000,
      completed: results.reduce((sum, result) => sum + result.completed, 0),
      errors: results.reduce((sum, result) => sum + result.errors, 0),
      p99Ms: summarize(latencies).p99,
      rssBytes: usage.rssBytes,
      loopDelayP99Ms: usage.loopDelayP99Ms,
      loopDelayMaxMs: usage.loopDelayMaxMs,
      gcPauseMaxMs: usage.gcPauseMaxMs,
      heapUsedBytes: usage.heapUsedBytes,
    }
    windows.push(window)
    printWindow(window)
    const firstError = results.find((result) => result.firstError !== undefined)?.firstError
    if (firstError !== undefined) console.log(`    first error in this window: ${firstError}`)
  }
  await Promise.all(pools.map((pool) => pool.close()))
  reportSoak(windows, options)
}

function printWindow(window: SoakWindow): void {
  const columns = [
    window.atSeconds.toFixed(0),
    ((window.completed * 1000) / windowMs).toFixed(0),
    String(window.errors),
    window.p99Ms.toFixed(1),
    mb(window.rssBytes),
    mb(window.heapUsedBytes),
    window.loopDelayP99Ms.toFixed(2),
    window.loopDelayMaxMs.toFixed(2),
    window.gcPauseMaxMs.toFixed(2),
  ]
  console.log(columns.map((column, position) => column.padStart(widths[position] ?? 8)).join(' '))
}

/** The summary after the last window: RSS spread and loop delay after warm-up, heap floors, the results file. */
function reportSoak(windows: readonly SoakWindow[], options: SoakOptions): void {
  const settled = windows.slice(Math.min(windows.length - 1, Math.ceil(windows.length / 5)))
  const rss = settled.map((window) => window.rssBytes)
  const growth = (Math.max(...rss) - Math.min(...rss)) / Math.min(...rss)
  console.log(
    `\nRSS after warm-up (first fifth dropped): ${mb(Math.min(...rss))}..${mb(Math.max(...rss))} MB, spread ${(growth * 100).toFixed(1)}%`,
  )
  const worstLoopP99 = (of: readonly SoakWindow[]): number => Math.max(...of.map((window) => window.loopDelayP99Ms))
  console.log(
    `event-loop delay p99, worst window: ${worstLoopP99(windows).toFixed(2)} ms; after warm-up: ${worstLoopP99(settled).toFixed(2)} ms`,
  )
  // RSS follows the old generation's sawtooth; the heap's low point in each minute (just after a full
  // collection) is what a leak raises.
  const heapFloors = lowestPerMinute(windows, windowMs)
  console.log(`V8 heap in use, lowest window sample in each minute (MB): ${heapFloors.map(mb).join(' ')}`)
  console.log(
    `results: ${saveResults('soak', { minutes: options.minutes, rate: options.rate, windows, rssSpreadAfterWarmup: growth, heapFloorPerMinuteBytes: heapFloors })}`,
  )
}

function lowestPerMinute(windows: readonly SoakWindow[], windowMs: number): number[] {
  const perMinute = Math.max(1, Math.round(60_000 / windowMs))
  const floors: number[] = []
  for (let start = 0; start < windows.length; start += perMinute)
    floors.push(Math.min(...windows.slice(start, start + perMinute).map((window) => window.heapUsedBytes)))
  return floors
}
