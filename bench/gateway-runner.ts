// How the benchmark runs a gateway child: as `npm start` runs Switchyard (the sources bundled into one
// ES module by scripts/build.mjs, run by plain Node with source maps), or through tsx like the tests
// (`--runner tsx`; CPU profiles then name each source file, which `profile-top.ts` groups by area).
import { resolve } from 'node:path'
import { bundle } from '../scripts/build.mjs'

export type GatewayRunner = 'bundle' | 'tsx'

export interface GatewayLaunch {
  readonly script: string
  /** Node's own arguments for the child, in place of the benchmark's. */
  readonly nodeArgs: readonly string[]
}

export function parseRunner(text: string, option: string): GatewayRunner {
  if (text === 'bundle' || text === 'tsx') return text
  throw new Error(`bench: ${option} must be bundle or tsx, not ${text}`)
}

/** The gateway script of `checkout` (a repository root), bundled into its bench-results/ when `runner` is bundle. */
export async function prepareGateway(checkout: string, runner: GatewayRunner): Promise<GatewayLaunch> {
  const source = resolve(checkout, 'bench/gateway-server.ts')
  if (runner === 'tsx') return { script: source, nodeArgs: ['--import', 'tsx'] }
  // Inside the checkout, so the bundle's dependencies resolve from that checkout's node_modules.
  const script = resolve(checkout, 'bench-results/gateway-server.mjs')
  await bundle(source, script)
  return { script, nodeArgs: ['--enable-source-maps'] }
}
