// What every console browser test starts from: the console built into a temporary directory, a fake
// openai-chat upstream behind `test/model`, the gateway serving both on a real port, and Chromium.
import { rmSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { buildConsoleAssets, chromiumMissing, launchChromium } from './console-browser.ts'

/** node:test's `skip` for the browser tests: the reason Chromium is missing, or false (under CI, never skipped). */
export const consoleSkip = ((): string | false => {
  try {
    return chromiumMissing(process.env) ?? false
  } catch {
    return false // under CI: startConsoleWorld fails with the reason
  }
})()

export interface ConsoleWorld {
  readonly upstream: FakeUpstream
  readonly gateway: TestGateway
  /** The gateway's base URL (http://127.0.0.1:PORT). */
  readonly base: string
  readonly browser: Browser
  close(): Promise<void>
}

/** Starts the world; `extraYaml` lines go before the providers (e.g. an egress setting). */
export async function startConsoleWorld(extraYaml: readonly string[] = []): Promise<ConsoleWorld> {
  chromiumMissing(process.env)
  const assets = buildConsoleAssets()
  const upstream = await startFakeUpstream({ api: 'openai-chat' })
  const gateway = await startTestGateway({
    yaml: [
      `console: { assets_dir: "${assets}" }`,
      ...extraYaml,
      'providers:',
      `  - { slug: chatco, name: ChatCo, api: openai-chat, base_url: "${upstream.url}" }`,
      'models:',
      '  - slug: test/model',
      '    endpoints:',
      '      - { provider: chatco, upstream_model_id: m1, max_output_tokens: 1000, pricing: { prompt: "0.001", completion: "0.002" } }',
      '',
    ].join('\n'),
  })
  const base = await gateway.listen()
  const browser = await launchChromium()
  return {
    upstream,
    gateway,
    base,
    browser,
    close: async () => {
      await browser.close()
      await gateway.close()
      await upstream.close()
      rmSync(assets, { recursive: true, force: true })
    },
  }
}
