// `npm run bench -- --compare-flags "<node flags>"` or `--compare-checkout <dir>`: an A/B of two
// gateways in the same run. A is this checkout (with `--gateway-node-flags`, if any); B is the same
// code with other Node flags, or another checkout's gateway (a git worktree of another commit). Both
// run side by side on the servers' core; each round measures, for every selected scenario and load,
// the proxy, then A and B in alternating order (A first in odd rounds). This machine's speed can drift
// by a factor of two within an hour, so only figures taken this close together compare: the report
// gives each round's B/A ratio of CPU per request, their median and spread, and the medians of each
// gateway's CPU ratio to the proxy, of its latency and of its event-loop thread's run-queue wait.
import type { BenchChild } from './child-process.ts'
import type { LoadShape } from './load.ts'
import { measureTarget } from './measure.ts'
import { scenarios, shapeName, type Scenario } from './scenarios.ts'
import { percentile } from './stats.ts'

export interface CompareServers {
  readonly proxy: BenchChild
  readonly a: BenchChild
  readonly b: BenchChild
}

export interface CompareOptions {
  readonly rounds: number
  readonly shapes: readonly LoadShape[]
  readonly selected: (scenario: Scenario) => boolean
  readonly warmupMs: number
  readonly durationMs: number
}

interface RoundFigures {
  readonly cpu: Record<'proxy' | 'a' | 'b', number>
  readonly p50: Record<'a' | 'b', number>
  readonly p99: Record<'a' | 'b', number>
  /** Event-loop thread's run-queue wait per request (µs; NaN off Linux): what a gateway's other threads take from it. */
  readonly wait: Record<'a' | 'b', number>
}

export interface CompareCell {
  readonly scenario: string
  readonly shape: string
  readonly rounds: readonly RoundFigures[]
}

export async function runCompare(servers: CompareServers, options: CompareOptions): Promise<CompareCell[]> {
  const cells = scenarios
    .filter(options.selected)
    .flatMap((scenario) => options.shapes.map((shape) => ({ scenario, shape, rounds: [] as RoundFigures[] })))
  for (let round = 1; round <= options.rounds; round++) {
    for (const { scenario, shape, rounds } of cells) {
      const figures = await measureRound(servers, scenario, shape, round % 2 === 1 ? ['a', 'b'] : ['b', 'a'], options)
      rounds.push(figures)
      console.log(
        `round ${round}  ${scenario.name.padEnd(26)} ${shapeName(shape).padEnd(7)} cpu µs proxy ${figures.cpu.proxy.toFixed(0).padStart(5)}  A ${figures.cpu.a.toFixed(0).padStart(5)}  B ${figures.cpu.b.toFixed(0).padStart(5)}  B/A ${(figures.cpu.b / figures.cpu.a).toFixed(3)}  p99 ms A ${figures.p99.a.toFixed(2)}  B ${figures.p99.b.toFixed(2)}  wait µs A ${figures.wait.a.toFixed(1)}  B ${figures.wait.b.toFixed(1)}`,
      )
    }
  }
  return cells.map(({ scenario, shape, rounds }) => ({ scenario: scenario.name, shape: shapeName(shape), rounds }))
}

async function measureRound(
  servers: CompareServers,
  scenario: Scenario,
  shape: LoadShape,
  order: readonly ('a' | 'b')[],
  options: CompareOptions,
): Promise<RoundFigures> {
  const measure = async (server: BenchChild, target: 'proxy' | 'gateway') => {
    const spec = scenario.request(target, server.info)
    const measured = await measureTarget(
      `http://127.0.0.1:${server.port}`,
      server,
      spec,
      shape,
      options.warmupMs,
      options.durationMs,
    )
    if (measured.firstError !== undefined)
      process.stderr.write(`  ${scenario.name} ${shapeName(shape)}: ${measured.firstError}\n`)
    return measured.figures
  }
  const proxy = await measure(servers.proxy, 'proxy')
  const gateways = {} as Record<'a' | 'b', Awaited<ReturnType<typeof measure>>>
  for (const side of order) gateways[side] = await measure(servers[side], 'gateway')
  return {
    cpu: {
      proxy: proxy.cpuMicrosPerRequest ?? Number.NaN,
      a: gateways.a.cpuMicrosPerRequest ?? Number.NaN,
      b: gateways.b.cpuMicrosPerRequest ?? Number.NaN,
    },
    p50: { a: gateways.a.p50Ms, b: gateways.b.p50Ms },
    p99: { a: gateways.a.p99Ms, b: gateways.b.p99Ms },
    wait: {
      a: gateways.a.loopWaitMicrosPerRequest ?? Number.NaN,
      b: gateways.b.loopWaitMicrosPerRequest ?? Number.NaN,
    },
  }
}

const median = (values: readonly number[]): number =>
  percentile(
    [...values].sort((x, y) => x - y),
    50,
  )
const spread = (values: readonly number[]): string =>
  `${Math.min(...values).toFixed(3)}-${Math.max(...values).toFixed(3)}`

/** One line per cell: the medians over the rounds, and the spread of the per-round B/A ratio. */
export function formatCompareSummary(cells: readonly CompareCell[]): string {
  const lines = [
    'scenario                   load    B/A cpu median (rounds' +
      "'" +
      ' spread)   A/proxy  B/proxy   p50 A / B ms     p99 A / B ms       wait A / B µs',
  ]
  for (const cell of cells) {
    const ratios = cell.rounds.map((round) => round.cpu.b / round.cpu.a)
    const toProxy = (side: 'a' | 'b') =>
      median(cell.rounds.map((round) => round.cpu[side] / round.cpu.proxy)).toFixed(2)
    const medians = (kind: 'p50' | 'p99' | 'wait', digits: number) =>
      `${median(cell.rounds.map((round) => round[kind].a)).toFixed(digits)} / ${median(cell.rounds.map((round) => round[kind].b)).toFixed(digits)}`
    lines.push(
      `${cell.scenario.padEnd(26)} ${cell.shape.padEnd(7)} ${median(ratios).toFixed(3).padStart(6)} (${spread(ratios)})`.padEnd(
        60,
      ) +
        `${toProxy('a').padStart(7)}  ${toProxy('b').padStart(7)}   ${medians('p50', 3).padEnd(16)} ${medians('p99', 3).padEnd(18)} ${medians('wait', 1)}`,
    )
  }
  return lines.join('\n')
}
