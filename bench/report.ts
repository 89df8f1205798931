// Turns raw load results into the figures the benchmark prints and saves: per scenario and load shape,
// each target's throughput, latency, added latency vs direct, time to first byte and CPU per request,
// and the gateway's figures as ratios to the bare proxy.
import type { LoadResult } from './load.ts'
import { summarize } from './stats.ts'
import type { TargetName } from './scenarios.ts'

export interface TargetFigures {
  readonly requestsPerSecond: number
  readonly errors: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly ttfbP50Ms: number
  readonly ttfbP99Ms: number
  /** Server CPU (user + system) per completed request; null for direct (no server in between). */
  readonly cpuMicrosPerRequest: number | null
  /** The part of it on the server's event-loop thread (Linux only); the rest is GC, JIT and worker threads. */
  readonly loopCpuMicrosPerRequest: number | null
  /**
   * Time the event-loop thread was ready to run but waited for its core, per request (Linux only): on a
   * pinned core, what the process's other threads (the write worker, GC helpers) and other processes
   * took from it while it had work.
   */
  readonly loopWaitMicrosPerRequest: number | null
}

/** The event-loop thread's time on the CPU and in the run queue over a window, µs. */
export interface LoopThreadTime {
  readonly cpuMicros: number
  readonly waitMicros: number
}

export interface CellFigures {
  readonly scenario: string
  readonly shape: string
  readonly targets: Record<TargetName, TargetFigures>
  readonly added: Record<'proxy' | 'gateway', { p50Ms: number; p99Ms: number; ttfbP50Ms: number }>
  /** gateway / proxy for each figure. */
  readonly gatewayToProxy: {
    requestsPerSecond: number
    p50Ms: number
    p99Ms: number
    ttfbP50Ms: number
    cpuMicrosPerRequest: number | null
    addedP50Ms: number
  }
}

export function targetFigures(
  result: LoadResult,
  cpuMicros: number | null,
  loopThread: LoopThreadTime | null,
): TargetFigures {
  const latency = summarize(result.latenciesMs)
  const ttfb = summarize(result.ttfbMs)
  const perRequest = (micros: number | undefined): number | null =>
    micros === undefined || result.completed === 0 ? null : micros / result.completed
  return {
    requestsPerSecond: (result.completed * 1000) / result.elapsedMs,
    errors: result.errors,
    p50Ms: latency.p50,
    p99Ms: latency.p99,
    ttfbP50Ms: ttfb.p50,
    ttfbP99Ms: ttfb.p99,
    cpuMicrosPerRequest: cpuMicros === null || result.completed === 0 ? null : cpuMicros / result.completed,
    loopCpuMicrosPerRequest: perRequest(loopThread?.cpuMicros),
    loopWaitMicrosPerRequest: perRequest(loopThread?.waitMicros),
  }
}

export function cellFigures(scenario: string, shape: string, targets: Record<TargetName, TargetFigures>): CellFigures {
  const addedFor = (name: 'proxy' | 'gateway') => ({
    p50Ms: targets[name].p50Ms - targets.direct.p50Ms,
    p99Ms: targets[name].p99Ms - targets.direct.p99Ms,
    ttfbP50Ms: targets[name].ttfbP50Ms - targets.direct.ttfbP50Ms,
  })
  const added = { proxy: addedFor('proxy'), gateway: addedFor('gateway') }
  const { proxy, gateway } = targets
  return {
    scenario,
    shape,
    targets,
    added,
    gatewayToProxy: {
      requestsPerSecond: gateway.requestsPerSecond / proxy.requestsPerSecond,
      p50Ms: gateway.p50Ms / proxy.p50Ms,
      p99Ms: gateway.p99Ms / proxy.p99Ms,
      ttfbP50Ms: gateway.ttfbP50Ms / proxy.ttfbP50Ms,
      cpuMicrosPerRequest:
        gateway.cpuMicrosPerRequest === null || proxy.cpuMicrosPerRequest === null
          ? null
          : gateway.cpuMicrosPerRequest / proxy.cpuMicrosPerRequest,
      addedP50Ms: added.gateway.p50Ms / added.proxy.p50Ms,
    },
  }
}

const fixed = (value: number | null, digits: number): string =>
  value === null || Number.isNaN(value) ? '-' : value.toFixed(digits)
const ratio = (value: number | null): string =>
  value === null || !Number.isFinite(value) ? '-' : `${value.toFixed(1)}x`

const columns: readonly [string, number, (cell: CellFigures) => string][] = [
  ['scenario', 25, (cell) => cell.scenario],
  ['load', 7, (cell) => cell.shape],
  ['req/s proxy', 12, (cell) => fixed(cell.targets.proxy.requestsPerSecond, 0)],
  ['req/s gw', 10, (cell) => fixed(cell.targets.gateway.requestsPerSecond, 0)],
  ['(x)', 6, (cell) => ratio(cell.gatewayToProxy.requestsPerSecond)],
  ['p50 direct', 11, (cell) => fixed(cell.targets.direct.p50Ms, 3)],
  ['p50 proxy', 10, (cell) => fixed(cell.targets.proxy.p50Ms, 3)],
  ['p50 gw', 8, (cell) => fixed(cell.targets.gateway.p50Ms, 3)],
  ['p99 proxy', 10, (cell) => fixed(cell.targets.proxy.p99Ms, 3)],
  ['p99 gw', 8, (cell) => fixed(cell.targets.gateway.p99Ms, 3)],
  ['+p50 proxy', 11, (cell) => fixed(cell.added.proxy.p50Ms, 3)],
  ['+p50 gw', 8, (cell) => fixed(cell.added.gateway.p50Ms, 3)],
  ['+p99 proxy', 11, (cell) => fixed(cell.added.proxy.p99Ms, 3)],
  ['+p99 gw', 8, (cell) => fixed(cell.added.gateway.p99Ms, 3)],
  ['+ttfb proxy', 12, (cell) => fixed(cell.added.proxy.ttfbP50Ms, 3)],
  ['+ttfb gw', 9, (cell) => fixed(cell.added.gateway.ttfbP50Ms, 3)],
  ['cpu µs proxy', 13, (cell) => fixed(cell.targets.proxy.cpuMicrosPerRequest, 0)],
  ['cpu µs gw', 10, (cell) => fixed(cell.targets.gateway.cpuMicrosPerRequest, 0)],
  ['(x)', 6, (cell) => ratio(cell.gatewayToProxy.cpuMicrosPerRequest)],
  ['loop µs proxy', 14, (cell) => fixed(cell.targets.proxy.loopCpuMicrosPerRequest, 0)],
  ['loop µs gw', 11, (cell) => fixed(cell.targets.gateway.loopCpuMicrosPerRequest, 0)],
  ['wait µs proxy', 14, (cell) => fixed(cell.targets.proxy.loopWaitMicrosPerRequest, 1)],
  ['wait µs gw', 11, (cell) => fixed(cell.targets.gateway.loopWaitMicrosPerRequest, 1)],
  ['errors', 6, (cell) => `${cell.targets.proxy.errors + cell.targets.gateway.errors + cell.targets.direct.errors}`],
]

export function formatHeader(): string {
  return columns.map(([title, width]) => title.padStart(width)).join(' ')
}

export function formatRow(cell: CellFigures): string {
  return columns.map(([, width, value]) => value(cell).padStart(width)).join(' ')
}
