#!/usr/bin/env node
// `npm run build` (and `npm start`, before it serves): bundles the TypeScript sources into one ES module,
// dist/switchyard.mjs, that plain Node runs. Dependencies stay external (loaded from node_modules as
// they are). The bundle starts faster and uses less memory than the sources run through tsx, whose
// loader is then not in the process; CPU per request measured the same.
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
