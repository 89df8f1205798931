#!/usr/bin/env node
// Runs every *.test.ts under src/ and test/ with node:test (Node 20 does not expand globs itself).
// Extra arguments are substrings that select test files: `npm test -- accounting store`.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'

function findTests(dir) {
  const found = []
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) found.push(...findTests(path))
    else if (name.endsWith('.test.ts')) found.push(path)
  }
  return found
}

const filters = process.argv.slice(2)
const files = ['src', 'test']
  .flatMap((dir) => findTests(dir))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort()

if (files.length === 0) {
  console.error('no test files matched')
  process.exit(1)
}

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...files],
  { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
)
process.exit(result.status ?? 1)
