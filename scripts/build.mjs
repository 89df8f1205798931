#!/usr/bin/env node
// `npm run build` (and `npm start`, before it serves): bundles the TypeScript sources into one ES module,
// dist/switchyard.mjs, that plain Node runs, and the web console (console/) into dist/console/, which
// the gateway serves at /console. Server dependencies stay external (loaded from node_modules as they
// are); the console bundle carries its few dependencies inside, so the browser loads nothing else. The
// server bundle starts faster and uses less memory than the sources run through tsx, whose loader is
// then not in the process; CPU per request measured the same.
import { build } from 'esbuild'
import { copyFileSync, mkdirSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Bundles `entry` (a path from the repository root) into `outfile`, as `npm start` runs it. */
export async function bundle(entry, outfile) {
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outdir: dirname(outfile),
    entryNames: basename(outfile, '.mjs'),
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  })
}

/** Builds the console into `outdir` (absolute, or relative to the repository root): index.html, console.js, console.css. */
export async function buildConsole(outdir) {
  const target = resolve(root, outdir)
  mkdirSync(target, { recursive: true })
  await build({
    absWorkingDir: root,
    entryPoints: ['console/main.tsx'],
    outfile: join(target, 'console.js'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: ['chrome109', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: true,
    legalComments: 'linked',
    logLevel: 'warning',
  })
  copyFileSync(join(root, 'console/index.html'), join(target, 'index.html'))
  copyFileSync(join(root, 'console/console.css'), join(target, 'console.css'))
}

// `node scripts/build.mjs` builds both; `node scripts/build.mjs --console <outdir>` only the console
// (the browser tests build it into a temporary directory).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const consoleOnly = process.argv[2] === '--console'
  if (!consoleOnly) await bundle('src/main.ts', 'dist/switchyard.mjs')
  await buildConsole(consoleOnly ? (process.argv[3] ?? 'dist/console') : 'dist/console')
}
