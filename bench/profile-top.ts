// `node --import tsx bench/profile-top.ts <file.cpuprofile> [count]`: where the gateway spends its CPU,
// from a V8 CPU profile (as `npm run bench -- --profile` writes to bench-results/profiles/). Shares are
// of the samples that did work while serving: idle samples (the gateway waits while the benchmark
// drives direct and proxy) and start-up module loading are left out. Three tables: by area (each
// sample goes to the nearest frame with a source: `src/<dir>`, a package, or a Node internal module),
// top frames by self time, and Switchyard frames by total time.
import { readFileSync } from 'node:fs'

interface CallFrame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
}
interface ProfileNode {
  readonly id: number
  readonly callFrame: CallFrame
  readonly children?: readonly number[]
}
interface Profile {
  readonly nodes: readonly ProfileNode[]
  readonly samples: readonly number[]
}

const [file, countText] = process.argv.slice(2)
if (file === undefined) throw new Error('usage: profile-top.ts <file.cpuprofile> [count]')
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const count = Number(countText ?? 25)
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const parents = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id)

function stackOf(id: number): ProfileNode[] {
  const stack: ProfileNode[] = []
  for (let current: number | undefined = id; current !== undefined; current = parents.get(current))
    stack.push(byId.get(current)!)
  return stack
}

// Module loading and fastify's route compilation at start (plugins boot through avvio).
const isStartup = (frame: CallFrame): boolean =>
  frame.url.includes('internal/modules/') ||
  frame.url.includes('/avvio/') ||
  frame.functionName === 'receiveMessageOnPort'
const relative = (url: string): string => url.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '')
const label = (frame: CallFrame): string =>
  `${frame.functionName || '(anonymous)'} ${frame.url === '' ? '' : `${relative(frame.url)}:${frame.lineNumber + 1}`}`

function areaOf(url: string): string {
  const path = relative(url)
  const nodeModule = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)
  if (nodeModule !== null) return nodeModule[1]!
  if (path.startsWith('src/')) return path.split('/').slice(0, -1).join('/')
  if (path.startsWith('node:')) return path.split('/').slice(0, 2).join('/')
  return path
}

const selfByLabel = new Map<string, number>()
const totalByLabel = new Map<string, number>()
const byArea = new Map<string, number>()
const add = (table: Map<string, number>, name: string): void => void table.set(name, (table.get(name) ?? 0) + 1)
let working = 0
let startup = 0
for (const sample of profile.samples) {
  const stack = stackOf(sample)
  const leaf = stack[0]!.callFrame
  if (leaf.functionName === '(idle)') continue
  if (stack.some((node) => isStartup(node.callFrame))) {
    startup++
    continue
  }
  working++
  add(selfByLabel, label(leaf))
  for (const name of new Set(stack.map((node) => label(node.callFrame)))) add(totalByLabel, name)
  const located = stack.find((node) => node.callFrame.url !== '')
  add(
    byArea,
    leaf.functionName.startsWith('(')
      ? leaf.functionName
      : located === undefined
        ? '(native)'
        : areaOf(located.callFrame.url),
  )
}

console.log(`${working} working samples (idle and ${startup} start-up samples left out)`)
const print = (title: string, table: Map<string, number>): void => {
  console.log(`\n${title}`)
  for (const [name, samples] of [...table].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`${((samples * 100) / working).toFixed(1).padStart(6)}%  ${name}`)
}
print('by area', byArea)
print('self time', selfByLabel)
print('total time of Switchyard frames', new Map([...totalByLabel].filter(([name]) => name.includes(' src/'))))
