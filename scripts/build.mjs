#!/usr/bin/env node
// `npm run build` (and `npm start`, before it serves): bundles the TypeScript sources into one ES module,
// dist/switchyard.mjs, that plain Node runs. Dependencies stay external (loaded from node_modules as
// they are). Running the bundle instead of the sources through tsx costs less CPU per request and less
// memory: tsx's loader and its run-time naming of every function are not in the process
// (docs/performance.md, item 39).
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Bundles `entry` (a path from the repository root) into `outfile`, as `npm start` runs it. */
export async function bundle(entry, outfile) {
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle('src/main.ts', 'dist/switchyard.mjs')
