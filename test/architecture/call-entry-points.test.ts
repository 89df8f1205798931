// Every way into the call core is an entry point of the policy matrix: a file under src/ that starts a
// call (runCall, meteredCall, runInference, invokeInference, createEmbeddingsRunner) or holds the invoke
// port (InvokePort, InvokeInput, the Inference handle) must be listed in test/support/call-entry-points.ts
// with the matrix entry points that check it, or as part of the core's wiring. A new in-process caller
// (a new tool, a new worker) therefore fails here until the matrix runs it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { coreCallers } from '../support/call-entry-points.ts'

const repository = resolve(import.meta.dirname, '../..')
const coreDirectory = 'src/inference/call/'
const doors = new Set([
  'runCall',
  'meteredCall',
  'runInference',
  'invokeInference',
  'createEmbeddingsRunner',
  'InvokePort',
  'InvokeInput',
  'Inference',
])

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !/\.(test|fixture|properties|contract)\.ts$/.test(entry.name) ? [path] : []
  })
}

/** The names a source imports (value and type imports alike), from `import { a, type B as C } from '...'`. */
function importedNames(text: string): string[] {
  return [...text.matchAll(/\bimport\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'[^']+'/g)].flatMap((match) =>
    match[1]!
      .split(',')
      .map(
        (part) =>
          part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
      )
      .filter((name) => name !== ''),
  )
}

function callersOfTheCore(): string[] {
  return sourceFiles(join(repository, 'src'))
    .map((file) => relative(repository, file))
    .filter((file) => !file.startsWith(coreDirectory))
    .filter((file) => importedNames(readFileSync(join(repository, file), 'utf8')).some((name) => doors.has(name)))
    .sort()
}

test('every caller of the call core is listed with the policy-matrix entry points that check it', () => {
  const callers = callersOfTheCore()
  assert.ok(callers.length >= 10, `found ${callers.length} callers: ${callers.join(', ')}`)
  const unlisted = callers.filter((file) => coreCallers[file] === undefined)
  assert.deepEqual(unlisted, [], 'callers of the call core missing from test/support/call-entry-points.ts')
  const stale = Object.keys(coreCallers).filter((file) => !callers.includes(file))
  assert.deepEqual(stale, [], 'listed callers that no longer reach the call core')
  for (const [file, role] of Object.entries(coreCallers))
    if (Array.isArray(role)) assert.ok(role.length > 0, `${file} names no entry point`)
})

test('the import reader sees value and type imports, renamed or not', () => {
  const text = "import { runCall, type CallSteps } from './a.ts'\nimport type { InvokePort as Port } from './b.ts'"
  assert.deepEqual(importedNames(text), ['runCall', 'CallSteps', 'InvokePort'])
})
