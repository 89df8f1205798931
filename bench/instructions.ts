// `npm run bench -- --instructions`: user-space instructions per request, counted by callgrind
// (callgrind.ts), for the bare proxy and the gateway started under valgrind in the same run. So that
// a window holds the steady state and nothing else (no JIT tier-up), every selected scenario is first
// sent to both targets, uninstrumented, in two passes over all of them; then, `--runs` times, each
// scenario's window per target is preceded by a re-warm of that scenario alone on the window's
// connections (its optimized code may have been dropped while others ran) and a wait until the target
// is quiet: under valgrind V8's background compile jobs take tens of seconds, and counted in a window
// they were half of it. No full GC is forced: it deoptimizes code whose embedded objects died, which
// the window would then recompile. The window: instrumentation on and zeroed, `--requests` requests at
// `--connections`, a pause for the write-behind work (settlement, generation records, observability
// export) to run inside it, a dump per thread. Figures count the threads that serve, V8's helper
// threads apart (callgrind.ts, WindowCount); they are per request, the median of the runs, and each
// gateway figure is also given as a ratio to the proxy's in this run.
import type { BenchChild } from './child-process.ts'
import { closeWindow, openWindow, waitUntilQuiet } from './callgrind.ts'
import type { Pool } from 'undici'
import { createPool, sendCount, type RequestSpec } from './load.ts'
import { scenarios, type Scenario } from './scenarios.ts'
import { percentile } from './stats.ts'
import { formatShares, windowShares, type WindowShares } from './window-shares.ts'

export interface InstructionOptions {
  readonly requests: number
  readonly runs: number
  readonly connections: number
  /** Requests per scenario and target in each of the two warm-up passes. */
  readonly warmupRequests: number
  /** Requests of the scenario alone right before each of its windows. */
  readonly rewarmRequests: number
  /** Pause after the last answer before the dump, for write-behind work. */
  readonly settleMs: number
  /** The scenarios warmed up. */
  readonly selected: (scenario: Scenario) => boolean
  /** The scenarios among them that are counted (a process per scenario runs them side by side). */
  readonly measured: (scenario: Scenario) => boolean
}

/** The scenarios counted unless `--only` names others, with the issue's target ratio to the proxy. */
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
  /** Instructions per request, one entry per run (none for Portkey when it did not run this scenario). */
  readonly proxy: readonly number[]
  readonly gateway: readonly number[]
  readonly portkey: readonly number[]
  /** The last run's gateway dump (callgrind_annotate reads it). */
  readonly gatewayDump: string
  /** Per run, the compiler's and the collector's shares of each window (null if the dump could not be read). */
  readonly proxyShares: readonly (WindowShares | null)[]
  readonly gatewayShares: readonly (WindowShares | null)[]
}

type Role = 'proxy' | 'gateway' | 'portkey'
type Targets = Readonly<Record<'proxy' | 'gateway', BenchChild>> & { readonly portkey: BenchChild | null }

/** Portkey runs the scenarios it serves in the same format, when it was started (`--portkey`). */
const rolesFor = (targets: Targets, scenario: Scenario): readonly Role[] =>
  targets.portkey !== null && scenario.portkey ? ['proxy', 'gateway', 'portkey'] : ['proxy', 'gateway']

const child = (targets: Targets, role: Role): BenchChild => {
  const server = targets[role]
  if (server === null) throw new Error('bench: Portkey was not started')
  return server
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Each target keeps one pool of `connections` connections from the first warm-up request to the last
 * window: optimized code embeds objects weakly (e.g. of a socket's parser), and once a closed pool's
 * sockets die the next full GC deoptimizes that code (V8 traces "weak objects"); counted in a window,
 * those recompiles were half of it.
 */
type Pools = ReadonlyMap<BenchChild, Pool>

async function send(
  server: BenchChild,
  pool: Pool,
  spec: RequestSpec,
  connections: number,
  count: number,
): Promise<void> {
  const sent = await sendCount(pool, spec, connections, count)
  if (sent.firstError !== undefined)
    process.stderr.write(`  ${server.name}: ${sent.errors} errors, first: ${sent.firstError}\n`)
}

/** Waits for the compile jobs a warm-up queued to finish (callgrind.ts, waitUntilQuiet), or says it did not. */
async function settleCompiles(server: BenchChild): Promise<void> {
  const quiet = await waitUntilQuiet(server.pid)
  if (quiet === null) process.stderr.write(`  ${server.name}: still busy after 5 minutes, counting anyway\n`)
  else
    process.stderr.write(
      `  ${server.name}: quiet ${quiet.seconds} s after the warm-up (${(quiet.share * 100).toFixed(0)}% of a core)\n`,
    )
}

interface WindowFigures {
  /** Instructions per request of the threads that serve (callgrind.ts, WindowCount). */
  readonly perRequest: number
  /** V8's helper threads per request: reported beside the figure, not in it. */
  readonly helpersPerRequest: number
  readonly file: string
  readonly shares: Promise<WindowShares | null>
}

const withHelpers = (figures: WindowFigures): string =>
  `${millions(figures.perRequest)} (+${millions(figures.helpersPerRequest)} V8 helpers)`

const poolOf = (pools: Pools, server: BenchChild): Pool => {
  const pool = pools.get(server)
  if (pool === undefined) throw new Error(`bench: no pool for ${server.name}`)
  return pool
}

async function countWindow(
  server: BenchChild,
  pools: Pools,
  spec: RequestSpec,
  options: InstructionOptions,
): Promise<WindowFigures> {
  const pool = poolOf(pools, server)
  await send(server, pool, spec, options.connections, options.rewarmRequests)
  await settleCompiles(server)
  openWindow(server.pid)
  const sent = await sendCount(pool, spec, options.connections, options.requests)
  await sleep(options.settleMs)
  const dump = await closeWindow(server.pid)
  if (sent.firstError !== undefined)
    process.stderr.write(`  ${server.name}: ${sent.errors} errors, first: ${sent.firstError}\n`)
  // Read while the next windows run: its CPU time does not count in their instructions.
  const shares = windowShares(dump.file).catch(() => null)
  const completed = Math.max(1, sent.completed)
  return {
    perRequest: dump.instructions / completed,
    helpersPerRequest: dump.helperInstructions / completed,
    file: dump.file,
    shares,
  }
}

interface CellRuns {
  readonly scenario: Scenario
  readonly proxy: number[]
  readonly gateway: number[]
  readonly portkey: number[]
  readonly proxyShares: Promise<WindowShares | null>[]
  readonly gatewayShares: Promise<WindowShares | null>[]
  dump: string
}

export async function countInstructions(targets: Targets, options: InstructionOptions): Promise<InstructionCell[]> {
  const chosen = scenarios.filter(options.selected)
  const servers = [targets.proxy, targets.gateway, ...(targets.portkey === null ? [] : [targets.portkey])]
  const pools: Pools = new Map(
    servers.map((server) => [
      server,
      createPool(`http://127.0.0.1:${server.port}`, { kind: 'closed', connections: options.connections }),
    ]),
  )
  try {
    return await countWith(targets, pools, chosen, options)
  } finally {
    await Promise.all([...pools.values()].map((pool) => pool.close()))
  }
}

/** Two passes over every chosen scenario, each target in turn, uncounted. */
async function warmUp(
  targets: Targets,
  pools: Pools,
  chosen: readonly Scenario[],
  options: InstructionOptions,
): Promise<void> {
  for (let pass = 0; pass < 2; pass++)
    for (const scenario of chosen)
      for (const role of rolesFor(targets, scenario)) {
        const server = child(targets, role)
        const spec = scenario.request(role, server.info)
        await send(server, poolOf(pools, server), spec, options.connections, options.warmupRequests)
      }
}

async function countWith(
  targets: Targets,
  pools: Pools,
  chosen: readonly Scenario[],
  options: InstructionOptions,
): Promise<InstructionCell[]> {
  await warmUp(targets, pools, chosen, options)
  const cells = chosen.map((scenario): CellRuns => ({
    scenario,
    proxy: [],
    gateway: [],
    portkey: [],
    proxyShares: [],
    gatewayShares: [],
    dump: '',
  }))
  for (let run = 1; run <= options.runs; run++) {
    for (const cell of cells) {
      const proxy = await countWindow(targets.proxy, pools, cell.scenario.request('proxy', targets.proxy.info), options)
      const gateway = await countWindow(
        targets.gateway,
        pools,
        cell.scenario.request('gateway', targets.gateway.info),
        options,
      )
      const portkey = rolesFor(targets, cell.scenario).includes('portkey')
        ? await countWindow(
            child(targets, 'portkey'),
            pools,
            cell.scenario.request('portkey', child(targets, 'portkey').info),
            options,
          )
        : null
      if (portkey !== null) cell.portkey.push(portkey.perRequest)
      cell.proxy.push(proxy.perRequest)
      cell.gateway.push(gateway.perRequest)
      cell.proxyShares.push(proxy.shares)
      cell.gatewayShares.push(gateway.shares)
      cell.dump = gateway.file
      console.log(
        `run ${run}  ${cell.scenario.name.padEnd(26)} proxy ${withHelpers(proxy)}  gateway ${withHelpers(gateway)}  (${(gateway.perRequest / proxy.perRequest).toFixed(2)}x)${portkey === null ? '' : `  portkey ${withHelpers(portkey)}`}`,
      )
    }
  }
  return Promise.all(
    cells.map(async (cell) => ({
      scenario: cell.scenario.name,
      proxy: cell.proxy,
      gateway: cell.gateway,
      portkey: cell.portkey,
      gatewayDump: cell.dump,
      proxyShares: await Promise.all(cell.proxyShares),
      gatewayShares: await Promise.all(cell.gatewayShares),
    })),
  )
}

const millions = (instructions: number): string => `${(instructions / 1e6).toFixed(3)} M`

const median = (values: readonly number[]): number =>
  percentile(
    [...values].sort((x, y) => x - y),
    50,
  )

/** Portkey's instructions per request over Switchyard's, in the same run: at least this many times. */
export const portkeyTarget = 5

function portkeyColumns(cell: InstructionCell, gateway: number): string {
  if (cell.portkey.length === 0) return '- | -'
  const ratio = median(cell.portkey) / gateway
  return `${millions(median(cell.portkey))} | ${ratio.toFixed(2)}x, ≥ ${portkeyTarget}x ${ratio >= portkeyTarget ? 'met' : 'not met'}`
}

/** The table: medians per request, the gateway's ratio to the proxy and Portkey's to the gateway, the targets, the runs. */
export function formatInstructionTable(cells: readonly InstructionCell[]): string {
  const lines = [
    '| scenario | bare proxy | Portkey | Portkey ÷ Switchyard | Switchyard | Switchyard ÷ proxy | target | proxy runs | Switchyard runs |',
    '|---|---|---|---|---|---|---|---|---|',
  ]
  for (const cell of cells) {
    const proxy = median(cell.proxy)
    const gateway = median(cell.gateway)
    const target = instructionTargets[cell.scenario]
    const ratio = gateway / proxy
    const verdict = target === undefined ? '-' : `≤ ${target}x ${ratio <= target ? 'met' : 'not met'}`
    lines.push(
      `| ${cell.scenario} | ${millions(proxy)} | ${portkeyColumns(cell, gateway)} | ${millions(gateway)} | ${ratio.toFixed(2)}x | ${verdict} | ${cell.proxy.map(millions).join(', ')} | ${cell.gateway.map(millions).join(', ')} |`,
    )
  }
  return lines.join('\n')
}

/** Per window, the compiler's and the collector's shares of its instructions: a steady window compiles next to nothing. */
export function formatWindowShares(cells: readonly InstructionCell[]): string {
  const runs = (shares: readonly (WindowShares | null)[]): string =>
    shares.map((share) => (share === null ? '?' : formatShares(share))).join(', ')
  const lines = ['| scenario | proxy compile / GC, per run | Switchyard compile / GC, per run |', '|---|---|---|']
  for (const cell of cells) lines.push(`| ${cell.scenario} | ${runs(cell.proxyShares)} | ${runs(cell.gatewayShares)} |`)
  return lines.join('\n')
}

/** What `--instructions` counts unless `--only` names scenarios: the issue's five and one translated stream. */
export const defaultInstructionScenarios: readonly string[] = [
  'chat',
  'responses',
  'embeddings',
  'chat-stream',
  'responses-stream',
  'responses-stream-via-chat',
]
