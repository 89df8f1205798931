#!/usr/bin/env node
// `switchyard <command>` (npm run switchyard, npm link, npx): runs the bundle `npm start` runs,
// dist/switchyard.mjs, with plain Node, so a command starts in well under a second instead of
// compiling the sources through tsx. The bundle is rebuilt first when it is missing or older than any
// file under src/, package.json or scripts/build.mjs. A rebuild writes into a directory of its own
// and renames the files into dist/, so concurrent commands never run a half-written bundle.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const bundleFile = join(root, 'dist', 'switchyard.mjs')

/** The newest modification time among the bundle's inputs (0 when the sources are not here). */
function newestSourceMtime() {
  const sources = join(root, 'src')
  if (!existsSync(sources)) return 0
  let newest = Math.max(
    statSync(join(root, 'package.json')).mtimeMs,
    statSync(join(root, 'scripts', 'build.mjs')).mtimeMs,
  )
  for (const entry of readdirSync(sources, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs)
  }
  return newest
}

function isStale() {
  if (!existsSync(bundleFile)) return true
  return statSync(bundleFile).mtimeMs < newestSourceMtime()
}

async function rebuild() {
  const { bundle } = await import('../scripts/build.mjs')
  mkdirSync(join(root, 'dist'), { recursive: true })
  const scratch = mkdtempSync(join(root, 'dist', '.build-'))
  try {
    const built = join(scratch, 'switchyard.mjs')
    await bundle('src/main.ts', built)
    // Chunks first (named by content hash, so an existing one is the same file), the entry last.
    mkdirSync(join(root, 'dist', 'chunks'), { recursive: true })
    for (const name of readdirSync(join(scratch, 'chunks')))
      renameSync(join(scratch, 'chunks', name), join(root, 'dist', 'chunks', name))
    renameSync(`${built}.map`, `${bundleFile}.map`)
    renameSync(built, bundleFile)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

if (isStale()) await rebuild()
process.setSourceMapsEnabled(true)
await import(pathToFileURL(bundleFile).href)
