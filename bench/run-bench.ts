// `npm run bench [-- --quick | --soak --minutes 10 | --instructions] [--only responses] [--profile] [--destination otlp|webhook|none] [--durability durable|write-behind] [--runner bundle|tsx]`
// Starts a zero-latency fake upstream, the observability receiver, the bare undici proxy and
// Switchyard, each in its own process (pinned to cores when taskset exists: servers under test on core
// 0, load generator, upstream and receiver on core 1), drives each scenario at each load shape against
// direct / proxy / gateway in turn, prints the figures side by side and writes them as JSON to
// bench-results/. With `--compare-flags "<flags>"`, `--compare-checkout <dir>` or `--compare-durability
// write-behind` (B answers before its records are committed) it runs an A/B of two gateways instead
// (compare.ts). `--instructions` first counts user-space instructions per request with the proxy and
// the gateway (and, with `--portkey <dir>`, the Portkey gateway installed there) under callgrind
// (instructions.ts), then runs the wall-clock figures (`--instructions-only`
// skips them). See docs/performance.md.
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { hasTaskset, pinToCore, startChild, type BenchChild, type StartChildOptions } from './child-process.ts'
import { callgrindDirectory, callgrindLaunch, hasValgrind } from './callgrind.ts'
import {
  countInstructions,
  defaultInstructionScenarios,
  formatInstructionTable,
  formatWindowShares,
} from './instructions.ts'
import { parseRunner, prepareGateway, type GatewayLaunch } from './gateway-runner.ts'
import { createPool, runLoad, type LoadShape } from './load.ts'
import { measureTarget } from './measure.ts'
import { formatCompareSummary, runCompare } from './compare.ts'
import { cellFigures, formatHeader, formatRow, type CellFigures, type TargetFigures } from './report.ts'
import { fullShapes, quickShapes, scenarios, shapeName, targetNames, type TargetName } from './scenarios.ts'
import { runSoak } from './soak.ts'
import { megabytes as mb, saveResults } from './save-results.ts'

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '2000' },
    seconds: { type: 'string' },
    chunks: { type: 'string', default: '50' },
    only: { type: 'string' },
    loads: { type: 'string' },
    profile: { type: 'boolean', default: false },
    destination: { type: 'string', default: 'otlp' },
    durability: { type: 'string', default: 'durable' },
    'compare-durability': { type: 'string' },
    'log-level': { type: 'string', default: 'info' },
    'gateway-node-flags': { type: 'string', default: '' },
    'compare-flags': { type: 'string' },
    'compare-checkout': { type: 'string' },
    rounds: { type: 'string', default: '3' },
    runner: { type: 'string' },
    'compare-runner': { type: 'string' },
    instructions: { type: 'boolean', default: false },
    'instructions-only': { type: 'boolean', default: false },
    requests: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '3' },
    'warmup-requests': { type: 'string', default: '2500' },
    'rewarm-requests': { type: 'string', default: '500' },
    measure: { type: 'string' },
    'callgrind-node-flags': { type: 'string', default: '' },
    portkey: { type: 'string' },
  },
})

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url))
const pinned = hasTaskset() && availableParallelism() >= 2
const serverCore = pinned ? 0 : undefined
const driverCore = pinned ? 1 : undefined

const splitFlags = (flags: string | undefined): string[] => (flags ?? '').split(/\s+/).filter((flag) => flag !== '')
const comparing =
  values['compare-flags'] !== undefined ||
  values['compare-checkout'] !== undefined ||
  values['compare-durability'] !== undefined
// A profile names source files only when the gateway runs through tsx.
const runner = parseRunner(values.runner ?? (values.profile ? 'tsx' : 'bundle'), '--runner')
const runnerB =
  values['compare-runner'] === undefined ? runner : parseRunner(values['compare-runner'], '--compare-runner')

interface Servers {
  readonly upstream: BenchChild
  readonly receiver: BenchChild
  readonly proxy: BenchChild
  readonly gateway: BenchChild
  readonly gatewayB: BenchChild | null
  /** `--instructions --portkey <dir>`: the Portkey gateway installed there, a third counted target. */
  readonly portkey: BenchChild | null
}

/** Gateway scripts older than receiver-server.ts send their exports to the upstream, which no longer takes them. */
function assertCheckoutHasReceiver(checkout: string | undefined): void {
  if (
    checkout !== undefined &&
    !readFileSync(resolve(checkout, 'bench/gateway-server.ts'), 'utf8').includes('--receiver')
  ) {
    throw new Error(
      `bench: ${checkout}/bench/gateway-server.ts predates bench/receiver-server.ts; copy this checkout's bench/gateway-server.ts into it first`,
    )
  }
}

type ChildExtras = Pick<StartChildOptions, 'core' | 'wrapper' | 'env'>

function startGateway(
  name: string,
  launch: GatewayLaunch,
  flags: readonly string[],
  urls: { readonly upstream: string; readonly receiver: string },
  extras: ChildExtras,
  durability = values.durability ?? 'durable',
): Promise<BenchChild> {
  return startChild(name, launch.script, {
    nodeArgs: launch.nodeArgs,
    args: [
      '--upstream',
      urls.upstream,
      '--receiver',
      urls.receiver,
      '--log-level',
      values['log-level'] ?? 'info',
      '--destination',
      values.destination ?? 'otlp',
      '--durability',
      durability,
    ],
    quiet: true,
    execArgv: [
      ...(values.profile ? ['--cpu-prof', '--cpu-prof-interval=100', '--cpu-prof-dir=bench-results/profiles'] : []),
      ...flags,
    ],
    ...extras,
  })
}

/** `underCallgrind`: the proxy and the gateway run under valgrind's callgrind (callgrind.ts), with no B. */
async function startServers(underCallgrind = false): Promise<Servers> {
  const checkout = underCallgrind ? undefined : values['compare-checkout']
  assertCheckoutHasReceiver(checkout)
  const valgrind = underCallgrind ? callgrindLaunch(splitFlags(values['callgrind-node-flags'])) : undefined
  if (driverCore !== undefined) pinToCore(process.pid, driverCore)
  const onDriverCore = driverCore === undefined ? {} : { core: driverCore }
  const upstream = await startChild('upstream', here('./upstream-server.ts'), {
    args: ['--chunks', values.chunks ?? '50'],
    ...onDriverCore,
  })
  const receiver = await startChild('receiver', here('./receiver-server.ts'), onDriverCore)
  const urls = { upstream: `http://127.0.0.1:${upstream.port}`, receiver: `http://127.0.0.1:${receiver.port}` }
  // Instruction counts do not depend on the core: under callgrind the servers run unpinned.
  const extras: ChildExtras = {
    ...(serverCore === undefined || underCallgrind ? {} : { core: serverCore }),
    ...(valgrind === undefined
      ? {}
      : { wrapper: { execPath: valgrind.execPath, args: valgrind.wrapperArgs }, env: valgrind.env }),
  }
  const proxy = await startChild('proxy', here('./bare-proxy.ts'), { args: ['--upstream', urls.upstream], ...extras })
  // V8 or Node flags for the gateway alone (the proxy keeps the defaults), e.g. GC experiments.
  const flags = splitFlags(values['gateway-node-flags'])
  const launch = await prepareGateway(here('..'), runner)
  const gateway = await startGateway('gateway', launch, flags, urls, extras)
  // B of this checkout with A's runner runs the same script (no second bundle over the one A runs).
  const launchB =
    !comparing || underCallgrind
      ? null
      : checkout === undefined && runnerB === runner
        ? launch
        : await prepareGateway(checkout ?? here('..'), runnerB)
  const flagsB = values['compare-flags'] === undefined ? flags : splitFlags(values['compare-flags'])
  const gatewayB =
    launchB === null
      ? null
      : await startGateway(
          'gateway B',
          launchB,
          flagsB,
          urls,
          extras,
          values['compare-durability'] ?? values.durability,
        )
  const portkey =
    underCallgrind && values.portkey !== undefined
      ? await startChild('portkey', here('./portkey-server.ts'), {
          args: ['--portkey', resolve(values.portkey), '--upstream', urls.upstream],
          quiet: true,
          ...extras,
        })
      : null
  return { upstream, receiver, proxy, gateway, gatewayB, portkey }
}

async function measureCell(
  servers: Record<TargetName, BenchChild>,
  scenarioIndex: number,
  shape: LoadShape,
  warmupMs: number,
  durationMs: number,
): Promise<CellFigures> {
  const scenario = scenarios[scenarioIndex]!
  const targets = {} as Record<TargetName, TargetFigures>
  for (const target of targetNames) {
    const server = servers[target]
    const measured = await measureTarget(
      `http://127.0.0.1:${server.port}`,
      target === 'direct' ? null : server,
      scenario.request(target, server.info),
      shape,
      warmupMs,
      durationMs,
    )
    if (measured.firstError !== undefined)
      process.stderr.write(`  ${target} ${scenario.name} ${shapeName(shape)}: ${measured.firstError}\n`)
    targets[target] = measured.figures
  }
  return cellFigures(scenario.name, shapeName(shape), targets)
}

// `--only a,b`: scenarios named exactly a or b; an entry that names no scenario exactly selects every
// scenario whose name contains it (`--only stream`).
function selected(name: string): boolean {
  if (values.only === undefined) return true
  return values.only
    .split(',')
    .some((entry) => name === entry || (!scenarios.some((scenario) => scenario.name === entry) && name.includes(entry)))
}

/**
 * Every selected scenario against the proxy and the gateway at 16 connections, unmeasured, before the
 * first cell: the first requests of each code path pay for JIT compilation and lazy module loads
 * (the OTLP exporter), which the per-cell warm-up alone leaves in the first cells' figures.
 */
async function warmUp(targets: readonly [BenchChild, 'proxy' | 'gateway'][], perScenarioMs: number): Promise<void> {
  const shape = { kind: 'closed', connections: 16 } as const
  for (const scenario of scenarios.filter((candidate) => selected(candidate.name))) {
    for (const [server, target] of targets) {
      const pool = createPool(`http://127.0.0.1:${server.port}`, shape)
      await runLoad(pool, scenario.request(target, server.info), shape, 0, perScenarioMs, async () => {})
      await pool.close()
    }
  }
}

async function runMatrix(servers: Record<TargetName, BenchChild>): Promise<void> {
  const loads = values.loads?.split(',')
  const shapes = (values.quick ? quickShapes : fullShapes).filter(
    (shape) => loads === undefined || loads.includes(shapeName(shape)),
  )
  const durationMs = Number(values.seconds ?? (values.quick ? 1.5 : 5)) * 1000
  const warmupMs = values.quick ? 500 : 1500
  console.log(
    `bench: ${values.quick ? 'quick' : 'full'} run, gateway run as ${runner === 'bundle' ? 'npm start runs it (bundle)' : 'the tests run it (tsx)'}, ${durationMs / 1000} s per cell, ${values.chunks} chunks per stream, destination ${values.destination}, durability ${values.durability}, ${pinned ? 'servers pinned to core 0, load, upstream and receiver to core 1' : 'not pinned (no taskset or one core)'}`,
  )
  console.log(
    'latencies in ms; +p50/+p99/+ttfb = added vs direct; cpu = server process CPU per request (every thread), loop = the part on its event-loop thread; (x) = gateway / proxy\n',
  )
  await warmUp(
    [
      [servers.proxy, 'proxy'],
      [servers.gateway, 'gateway'],
    ],
    values.quick ? 1000 : 3000,
  )
  console.log(formatHeader())
  const cells: CellFigures[] = []
  for (const [index, scenario] of scenarios.entries()) {
    if (!selected(scenario.name)) continue
    for (const shape of shapes) {
      const cell = await measureCell(servers, index, shape, warmupMs, durationMs)
      cells.push(cell)
      console.log(formatRow(cell))
    }
  }
  const [proxyUsage, gatewayUsage] = await Promise.all([servers.proxy.usage(), servers.gateway.usage()])
  console.log(
    `\npeak RSS: proxy ${mb(proxyUsage.maxRssBytes)} MB, gateway ${mb(gatewayUsage.maxRssBytes)} MB (${(gatewayUsage.maxRssBytes / proxyUsage.maxRssBytes).toFixed(1)}x)`,
  )
  const file = saveResults('bench', {
    mode: values.quick ? 'quick' : 'full',
    pinned,
    chunks: Number(values.chunks),
    destination: values.destination,
    durability: values.durability,
    durationMs,
    cells,
    peakRssBytes: { proxy: proxyUsage.maxRssBytes, gateway: gatewayUsage.maxRssBytes },
  })
  console.log(`results: ${file}`)
}

async function runComparison(proxy: BenchChild, a: BenchChild, b: BenchChild): Promise<void> {
  const loads = values.loads?.split(',')
  const shapes = (values.quick ? quickShapes : fullShapes).filter(
    (shape) => loads === undefined || loads.includes(shapeName(shape)),
  )
  const durationMs = Number(values.seconds ?? (values.quick ? 1.5 : 5)) * 1000
  const rounds = Number(values.rounds)
  const describedB =
    values['compare-checkout'] === undefined
      ? `this checkout with ${(values['compare-flags'] ?? '') === '' ? 'no flags' : `"${values['compare-flags']}"`}`
      : `${values['compare-checkout']}`
  console.log(
    `bench compare: A = this checkout (${runner})${values['gateway-node-flags'] === '' ? '' : ` with "${values['gateway-node-flags']}"`}, B = ${describedB} (${runnerB}); durability A ${values.durability}, B ${values['compare-durability'] ?? values.durability}; ${rounds} rounds, ${durationMs / 1000} s per measurement, ${pinned ? 'servers pinned to core 0' : 'not pinned'}\n`,
  )
  await warmUp(
    [
      [proxy, 'proxy'],
      [a, 'gateway'],
      [b, 'gateway'],
    ],
    values.quick ? 1000 : 3000,
  )
  const cells = await runCompare(
    { proxy, a, b },
    {
      rounds,
      shapes,
      selected: (scenario) => selected(scenario.name),
      warmupMs: values.quick ? 500 : 1500,
      durationMs,
    },
  )
  console.log(`\n${formatCompareSummary(cells)}`)
  console.log(
    `results: ${saveResults('compare', { a: values['gateway-node-flags'], b: values['compare-checkout'] ?? values['compare-flags'], durability: { a: values.durability, b: values['compare-durability'] ?? values.durability }, rounds, durationMs, cells })}`,
  )
}

async function runInstructionStage(): Promise<void> {
  if (!hasValgrind())
    throw new Error('bench: --instructions needs valgrind and callgrind_control (apt-get install valgrind)')
  const requests = Number(values.requests)
  const runs = Number(values.runs)
  console.log(
    `bench --instructions: proxy, gateway (${runner})${values.portkey === undefined ? '' : ' and Portkey'} under callgrind, destination ${values.destination}; every scenario warmed with ${values['warmup-requests']} requests in each of two passes, then ${runs} runs of ${requests} requests at ${instructionConnections} connections per scenario, each after ${values['rewarm-requests']} requests of the scenario and a wait until the target is quiet, ${settleMs} ms for write-behind work before each dump; user-space instructions per request, median of the runs\n`,
  )
  const started = await startServers(true)
  try {
    const cells = await countInstructions(started, {
      requests,
      runs,
      connections: instructionConnections,
      warmupRequests: Number(values['warmup-requests']),
      rewarmRequests: Number(values['rewarm-requests']),
      settleMs,
      selected: (scenario) =>
        values.only === undefined ? defaultInstructionScenarios.includes(scenario.name) : selected(scenario.name),
      measured: (scenario) => values.measure === undefined || values.measure.split(',').includes(scenario.name),
    })
    console.log(`\n${formatInstructionTable(cells)}\n`)
    console.log(`What the event-loop thread's windows held besides requests (V8's compilers / garbage collector):\n`)
    console.log(`${formatWindowShares(cells)}\n`)
    console.log(`gateway dumps (callgrind_annotate <file>) in ${callgrindDirectory}:`)
    for (const cell of cells) console.log(`  ${cell.scenario}: ${cell.gatewayDump}`)
    console.log(`results: ${saveResults('instructions', { requests, runs, destination: values.destination, cells })}\n`)
  } finally {
    await stopServers(started)
  }
}

async function stopServers(started: Servers): Promise<void> {
  await started.portkey?.stop()
  await started.gatewayB?.stop()
  await started.gateway.stop()
  await started.proxy.stop()
  await started.upstream.stop()
  await started.receiver.stop()
}

const instructionConnections = 4
const settleMs = 1500
if (values.instructions || values['instructions-only']) await runInstructionStage()
if (!values['instructions-only']) {
  const started = await startServers()
  const servers = { direct: started.upstream, proxy: started.proxy, gateway: started.gateway }
  try {
    if (started.gatewayB !== null) await runComparison(started.proxy, started.gateway, started.gatewayB)
    else if (values.soak) await runSoak(servers, { minutes: Number(values.minutes), rate: Number(values.rate) })
    else await runMatrix(servers)
  } finally {
    await stopServers(started)
  }
}
