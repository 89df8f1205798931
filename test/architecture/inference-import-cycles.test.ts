// src/inference has no import cycle, counting type-only imports: the entry points depend on the call
// core, server tools reach nested calls through the invoke port, and nothing leads back. (eslint's
// import-x/no-cycle skips `import type`, which is how a 34-file cycle once went unnoticed.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../../src/inference')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** The files a file imports or re-exports from, relatively (`import`, `import type`, `export ... from`). */
function relativeImports(file: string, text: string): string[] {
  return [...text.matchAll(/\bfrom '(\.{1,2}\/[^']+)'/g)].map((match) => resolve(dirname(file), match[1]!))
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(files.map((file) => [file, relativeImports(file, readFileSync(file, 'utf8'))]))
}

/** One cycle as a list of files, or null (depth-first search with colours). */
function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (file: string): string[] | null => {
    state.set(file, 'open')
    path.push(file)
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue
      if (state.get(target) === 'open') return [...path.slice(path.indexOf(target)), target]
      if (state.get(target) === undefined) {
        const found = visit(target)
        if (found !== null) return found
      }
    }
    path.pop()
    state.set(file, 'done')
    return null
  }
  for (const file of graph.keys()) {
    if (state.get(file) !== undefined) continue
    const found = visit(file)
    if (found !== null) return found
  }
  return null
}

test('src/inference has no import cycle, type-only imports included', () => {
  const graph = importGraph(sourceFiles(root))
  assert.ok(graph.size > 50, `read ${graph.size} files under ${root}`)
  const cycle = findCycle(graph)
  assert.equal(cycle?.map((file) => relative(root, file)).join(' -> ') ?? null, null)
})

test('the cycle finder sees a cycle made only of type imports', () => {
  const sources: Record<string, string> = {
    '/a.ts': "import type { B } from './b.ts'",
    '/b.ts': "export type { C } from './c.ts'",
    '/c.ts': "import { type A } from './a.ts'",
  }
  const graph = new Map(Object.entries(sources).map(([file, text]) => [file, relativeImports(file, text)]))
  assert.deepEqual(findCycle(graph), ['/a.ts', '/b.ts', '/c.ts', '/a.ts'])
})
