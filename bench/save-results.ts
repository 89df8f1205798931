// Where benchmark results go: bench-results/<kind>-<timestamp>.json (gitignored).
import { mkdirSync, writeFileSync } from 'node:fs'

export function saveResults(kind: string, results: object): string {
  mkdirSync('bench-results', { recursive: true })
  const at = new Date().toISOString()
  const file = `bench-results/${kind}-${at.replace(/[:.]/g, '-')}.json`
  writeFileSync(file, `${JSON.stringify({ node: process.version, at, ...results }, null, 2)}\n`)
  return file
}

export function megabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1)
}
