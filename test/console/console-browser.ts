// Debian's Chromium driven by playwright-core (which never downloads a browser), and the console built
// into a temporary directory for the gateway to serve. Outside CI a machine without Chromium skips the
// browser tests; under CI=true a missing Chromium fails them (.ci/run installs it).
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { chromium, type Browser } from 'playwright-core'

export const chromiumPath = '/usr/bin/chromium'

/** Why the browser tests cannot run here, or null when they can. Throws under CI: there they must run. */
export function chromiumMissing(env: NodeJS.ProcessEnv): string | null {
  if (existsSync(chromiumPath)) return null
  const reason = `${chromiumPath} is missing: install Debian's chromium (apt-get install -y chromium) to run the console browser tests`
  if (env.CI === 'true') throw new Error(`${reason}; under CI the browser tests must run`)
  return reason
}

export function launchChromium(): Promise<Browser> {
  // Playwright runs the browser headless with a fresh temporary --user-data-dir of its own.
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}

/** Builds the console (scripts/build.mjs --console) into a fresh temporary directory and returns it. */
export function buildConsoleAssets(): string {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-console-'))
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--console', directory], { encoding: 'utf8' })
  if (built.status !== 0) throw new Error(`the console build failed: ${built.stderr}`)
  return directory
}
