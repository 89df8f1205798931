// Driving the console like a person: sign in, go to a page, save screenshots of it at desktop and
// phone widths under test-results/console/.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'

export const screenshotDirectory = join('test-results', 'console')
const widths = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const

export interface ConsoleSession {
  readonly context: BrowserContext
  readonly page: Page
  /** Every URL the page requested (to check that the key never travels in one). */
  readonly requestedUrls: string[]
}

export async function openConsole(browser: Browser, base: string): Promise<ConsoleSession> {
  const context = await browser.newContext({ viewport: widths.desktop })
  context.setDefaultTimeout(15_000)
  const page = await context.newPage()
  const requestedUrls: string[] = []
  page.on('request', (request) => requestedUrls.push(request.url()))
  await page.goto(`${base}/console/`)
  return { context, page, requestedUrls }
}

export async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('API key').fill(key)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('button', { name: 'Sign out' }).waitFor()
}

export async function goTo(page: Page, hash: string, heading: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`)
  await page.getByRole('heading', { level: 2, name: heading }).waitFor()
}

/**
 * Screenshots of the current page at both widths (full page), named `<name>-desktop.png` and
 * `<name>-phone.png`; fails when the page is wider than the phone's screen (it must not scroll sideways).
 */
export async function screenshotBoth(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDirectory, { recursive: true })
  for (const [label, size] of Object.entries(widths)) {
    await page.setViewportSize(size)
    await page.screenshot({ path: join(screenshotDirectory, `${name}-${label}.png`), fullPage: true })
    const width = await page.evaluate<number>('document.documentElement.scrollWidth')
    if (width > size.width) throw new Error(`${name} is ${width} px wide at the ${label} width of ${size.width} px`)
  }
  await page.setViewportSize(widths.desktop)
}
