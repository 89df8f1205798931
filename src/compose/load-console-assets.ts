// Reads the console's built assets once at start-up (a few hundred kilobytes), so serving them does no I/O.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join } from 'node:path'
import type { ConsoleAsset, ConsoleAssets } from '../http/console-routes.ts'

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
}

export function loadConsoleAssets(directory: string): ConsoleAssets {
  if (!existsSync(join(directory, 'index.html'))) return { directory, files: null }
  const files = new Map<string, ConsoleAsset>()
  for (const name of readdirSync(directory)) {
    const path = join(directory, name)
    const contentType = contentTypes[extname(name)]
    if (contentType === undefined || !statSync(path).isFile()) continue
    files.set(name, { body: readFileSync(path), contentType })
  }
  return { directory, files }
}
