// `node --import tsx bench/profile-top.ts <file.cpuprofile> [count]`: the top frames of a V8 CPU
// profile (as `npm run bench -- --profile` writes to bench-results/profiles/) by self time and by
// total time, with the file they live in, to see where the gateway spends its CPU.
interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: readonly number[]
}
interface Profile {
  readonly nodes: readonly ProfileNode[]
  readonly samples: readonly number[]
}

import { readFileSync } from 'node:fs'

const [file, countText] = process.argv.slice(2)
if (file === undefined) throw new Error('usage: profile-top.ts <file.cpuprofile> [count]')
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const count = Number(countText ?? 25)
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const parents = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id)
const selfSamples = new Map<number, number>()
for (const sample of profile.samples) selfSamples.set(sample, (selfSamples.get(sample) ?? 0) + 1)

const label = (node: ProfileNode): string => {
  const url = node.callFrame.url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '')
  return `${node.callFrame.functionName || '(anonymous)'} ${url === '' ? '' : `${url}:${node.callFrame.lineNumber + 1}`}`
}
const selfByLabel = new Map<string, number>()
const totalByLabel = new Map<string, number>()
for (const [id, samples] of selfSamples) {
  const node = byId.get(id)
  if (node === undefined) continue
  selfByLabel.set(label(node), (selfByLabel.get(label(node)) ?? 0) + samples)
  const seen = new Set<string>()
  for (let current: number | undefined = id; current !== undefined; current = parents.get(current)) {
    const name = label(byId.get(current)!)
    if (seen.has(name)) continue
    seen.add(name)
    totalByLabel.set(name, (totalByLabel.get(name) ?? 0) + samples)
  }
}
// Shares are of the non-idle samples: the gateway idles while the benchmark drives direct and proxy.
const total = profile.samples.length - (selfByLabel.get('(idle) ') ?? 0)
const print = (title: string, table: Map<string, number>): void => {
  console.log(`\n${title} (of ${total} non-idle samples)`)
  for (const [name, samples] of [...table].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`${((samples * 100) / total).toFixed(1).padStart(6)}%  ${name}`)
}
print('self time', selfByLabel)
print('total time', totalByLabel)
print('total time of Switchyard frames', new Map([...totalByLabel].filter(([name]) => name.includes(' src/'))))
