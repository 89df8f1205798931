// `npm run bench -- --instructions`: user-space instructions per request, counted by callgrind
// (callgrind.ts), for the bare proxy and the gateway started under valgrind in the same run. Every
// selected scenario is first sent to both, uninstrumented, so the JIT's tier-up falls outside the
// windows; then, `--runs` times, each scenario's window per target: instrumentation on and zeroed,
// `--requests` requests at `--connections`, a pause for the write-behind work (settlement, generation
// records, observability export) to run inside the window, a dump. Figures are per request, the
// median of the runs, and each gateway figure is also given as a ratio to the proxy's in this run.
import type { BenchChild } from './child-process.ts'
import { closeWindow, openWindow } from './callgrind.ts'
import { createPool, sendCount, type RequestSpec } from './load.ts'
import { scenarios, type Scenario } from './scenarios.ts'
import { percentile } from './stats.ts'

export interface InstructionOptions {
  readonly requests: number
  readonly runs: number
  readonly connections: number
  readonly warmupRequests: number
  /** Pause after the last answer before the dump, for write-behind work. */
  readonly settleMs: number
  readonly selected: (scenario: Scenario) => boolean
}

/** The scenarios counted unless `--only` names others, with the target ratio to the proxy. */
export const instructionTargets: Readonly<Record<string, number>> = {
  chat: 3.5,
  responses: 3.5,
  embeddings: 3,
  'chat-stream': 1.6,
  'responses-stream': 1.6,
  'messages-stream': 1.6,
  'responses-stream-via-chat': 2.5,
  messages: 3.5,
}

export interface InstructionCell {
  readonly scenario: string
  /** Instructions per request, one entry per run. */
  readonly proxy: readonly number[]
  readonly gateway: readonly number[]
  /** The last run's gateway dump (callgrind_annotate reads it). */
  readonly gatewayDump: string
}

type Targets = Readonly<Record<'proxy' | 'gateway', BenchChild>>

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

async function send(server: BenchChild, spec: RequestSpec, connections: number, count: number): Promise<number> {
  const pool = createPool(`http://127.0.0.1:${server.port}`, { kind: 'closed', connections })
  const sent = await sendCount(pool, spec, connections, count)
  await pool.close()
  if (sent.firstError !== undefined)
    process.stderr.write(`  ${server.name}: ${sent.errors} errors, first: ${sent.firstError}\n`)
  return sent.completed
}

async function countWindow(
  server: BenchChild,
  spec: RequestSpec,
  options: InstructionOptions,
): Promise<{ readonly perRequest: number; readonly file: string }> {
  const pool = createPool(`http://127.0.0.1:${server.port}`, { kind: 'closed', connections: options.connections })
  openWindow(server.pid)
  const sent = await sendCount(pool, spec, options.connections, options.requests)
  await sleep(options.settleMs)
  const dump = await closeWindow(server.pid)
  await pool.close()
  if (sent.firstError !== undefined)
    process.stderr.write(`  ${server.name}: ${sent.errors} errors, first: ${sent.firstError}\n`)
  return { perRequest: dump.instructions / Math.max(1, sent.completed), file: dump.file }
}

export async function countInstructions(targets: Targets, options: InstructionOptions): Promise<InstructionCell[]> {
  const chosen = scenarios.filter(options.selected)
  const key = targets.gateway.info.key ?? ''
  for (const scenario of chosen)
    for (const target of ['proxy', 'gateway'] as const)
      await send(targets[target], scenario.request(target, key), options.connections, options.warmupRequests)
  const cells = chosen.map((scenario) => ({ scenario, proxy: [] as number[], gateway: [] as number[], dump: '' }))
  for (let run = 1; run <= options.runs; run++) {
    for (const cell of cells) {
      const proxy = await countWindow(targets.proxy, cell.scenario.request('proxy', key), options)
      const gateway = await countWindow(targets.gateway, cell.scenario.request('gateway', key), options)
      cell.proxy.push(proxy.perRequest)
      cell.gateway.push(gateway.perRequest)
      cell.dump = gateway.file
      console.log(
        `run ${run}  ${cell.scenario.name.padEnd(26)} proxy ${millions(proxy.perRequest)}  gateway ${millions(gateway.perRequest)}  (${(gateway.perRequest / proxy.perRequest).toFixed(2)}x)`,
      )
    }
  }
  return cells.map((cell) => ({
    scenario: cell.scenario.name,
    proxy: cell.proxy,
    gateway: cell.gateway,
    gatewayDump: cell.dump,
  }))
}

const millions = (instructions: number): string => `${(instructions / 1e6).toFixed(3)} M`

const median = (values: readonly number[]): number =>
  percentile(
    [...values].sort((x, y) => x - y),
    50,
  )

/** The table: medians per request, the gateway's ratio to the proxy, the target, and the runs' spread. */
export function formatInstructionTable(cells: readonly InstructionCell[]): string {
  const lines = [
    '| scenario | bare proxy | Switchyard | Switchyard ÷ proxy | target | Switchyard runs |',
    '|---|---|---|---|---|---|',
  ]
  for (const cell of cells) {
    const proxy = median(cell.proxy)
    const gateway = median(cell.gateway)
    const target = instructionTargets[cell.scenario]
    const ratio = gateway / proxy
    const verdict = target === undefined ? '-' : `≤ ${target}x ${ratio <= target ? 'met' : 'not met'}`
    lines.push(
      `| ${cell.scenario} | ${millions(proxy)} | ${millions(gateway)} | ${ratio.toFixed(2)}x | ${verdict} | ${cell.gateway.map(millions).join(', ')} |`,
    )
  }
  return lines.join('\n')
}

/** What `--instructions` counts unless `--only` names scenarios: the five and one translated stream. */
export const defaultInstructionScenarios: readonly string[] = [
  'chat',
  'responses',
  'embeddings',
  'chat-stream',
  'responses-stream',
  'responses-stream-via-chat',
]
