// The console in a real browser (Debian's Chromium): sign in with the management key, create a key and
// see its plaintext once, make inference calls with it through the OpenAI SDK, then find its spend on
// the overview and its generations in the explorer; the same key then signs in to its self-service view.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import type { Page } from 'playwright-core'
import type { FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import type { TestGateway } from '../support/test-gateway.ts'
import { consoleSkip as skip, startConsoleWorld, type ConsoleWorld } from './console-world.ts'
import { goTo, openConsole, screenshotBoth, signIn, type ConsoleSession } from './console-pages.ts'

let world: ConsoleWorld | undefined
let upstream: FakeUpstream
let gateway: TestGateway
let base: string
let admin: ConsoleSession
let page: Page
let plaintext = ''

before(async () => {
  if (skip !== false) return
  world = await startConsoleWorld()
  ;({ upstream, gateway, base } = world)
  admin = await openConsole(world.browser, base)
  page = admin.page
})

after(() => world?.close())

test('a management key signs in; a wrong key is refused with the API message', { skip }, async () => {
  await screenshotBoth(page, 'sign-in')
  await page.getByLabel('API key').fill('sk-sy-v1-not-a-key')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('alert').filter({ hasText: 'Invalid API key' }).waitFor()
  await signIn(page, gateway.adminKey)
  await page.getByRole('heading', { level: 2, name: 'Overview' }).waitFor()
  assert.equal(await page.evaluate('sessionStorage.length'), 1, 'the key is kept in session storage')
})

test('creating a key shows its plaintext once, with a copy button', { skip }, async () => {
  await goTo(page, '#/keys', 'Keys')
  const form = page.getByRole('form', { name: 'create key' })
  await form.getByLabel('Limit (USD').fill('-1')
  await form.getByLabel('Name').fill('console-e2e')
  await form.getByLabel('Limit (USD').fill('5')
  await form.getByRole('button', { name: 'Create key' }).click()
  plaintext = (await page.getByTestId('new-key').textContent()) ?? ''
  assert.match(plaintext, /^sk-sy-v1-/)
  await page.getByRole('button', { name: 'Copy' }).waitFor()
  await screenshotBoth(page, 'keys-created')
  await page.getByRole('button', { name: 'Done, hide it' }).click()
  await page.getByRole('table', { name: 'keys' }).getByText('console-e2e').waitFor()
  await page.reload()
  await page.getByRole('table', { name: 'keys' }).getByText('console-e2e').waitFor()
  assert.ok(!(await page.content()).includes(plaintext), 'the plaintext is not shown again')
  await screenshotBoth(page, 'keys')
})

test('a form shows the API error message', { skip }, async () => {
  const form = page.getByRole('form', { name: 'create key' })
  await form.getByLabel('Name').fill('bad workspace')
  await form.getByLabel('Workspace id').fill('no-such-workspace')
  await form.getByRole('button', { name: 'Create key' }).click()
  const message = await form.getByRole('alert').textContent()
  assert.match(message ?? '', /^4\d\d: .*workspace/i)
})

test('the key pays for inference calls; its spend shows on the overview', { skip }, async () => {
  const client = new OpenAI({ apiKey: plaintext, baseURL: `${base}/api/v1` })
  for (let call = 0; call < 3; call += 1) {
    const answer = await client.chat.completions.create({
      model: 'test/model',
      messages: [{ role: 'user', content: `hello ${call}` }],
    })
    assert.ok(answer.id.startsWith('gen-'))
  }
  await goTo(page, '#/overview?days=1', 'Overview')
  const ranking = page.getByRole('region', { name: /Top keys by spend/ })
  await ranking.getByText('console-e2e').waitFor()
  assert.doesNotMatch((await ranking.textContent()) ?? '', /console-e2e[^$]*\$0\.00\b/)
  // GET /api/v1/activity: today's three calls, charted, with their spend.
  await page.locator('[data-stat="Requests"]').filter({ hasText: /^3$/ }).waitFor()
  assert.equal(await page.locator('[data-stat="Spend"]').textContent(), '$0.06')
  await page.getByRole('region', { name: 'Top models by spend' }).getByText('test/model').waitFor()
  await screenshotBoth(page, 'overview')
})

test('the generations explorer lists the calls and opens one', { skip }, async () => {
  await goTo(page, '#/generations', 'Generations')
  const table = page.getByRole('table', { name: 'generations' })
  await table.getByText('test/model').first().waitFor()
  assert.equal(await table.locator('tbody tr').count(), 3)
  await screenshotBoth(page, 'generations')
  await table.locator('tbody tr a').first().click()
  await page.getByRole('table', { name: 'attempts' }).getByRole('cell', { name: 'chatco', exact: true }).waitFor()
  await page.getByText('Hello from the fake upstream.').waitFor()
  assert.match((await page.locator('pre').first().textContent()) ?? '', /hello \d/)
  await screenshotBoth(page, 'generation-detail')
})

test('the models page lists the catalog with prices', { skip }, async () => {
  await goTo(page, '#/models', 'Models and providers')
  await page.getByRole('link', { name: 'test/model' }).waitFor()
  await page.getByRole('table', { name: 'models' }).getByText('$1000.00').first().waitFor()
  await screenshotBoth(page, 'models')
})

test("endpoint health shows this instance's attempts, and failures open the circuit", { skip }, async () => {
  // A key of its own, so that the self-service test below reads only the console-e2e key's spend.
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: { authorization: `Bearer ${gateway.adminKey}` },
    payload: { name: 'health-calls' },
  })
  const client = new OpenAI({ apiKey: created.json<{ key: string }>().key, baseURL: `${base}/api/v1`, maxRetries: 0 })
  const chat = () =>
    client.chat.completions.create({ model: 'test/model', messages: [{ role: 'user', content: 'health' }] })
  await chat()
  await goTo(page, '#/models', 'Models and providers')
  const row = () =>
    page.getByRole('table', { name: 'endpoint health' }).getByRole('row').filter({ hasText: 'test/model' })
  await row().getByText('closed', { exact: true }).waitFor()
  await row().getByRole('cell', { name: '0.0%', exact: true }).waitFor()
  for (let failure = 0; failure < 5; failure += 1) {
    upstream.script({ type: 'error', status: 500, message: 'boom' })
    await assert.rejects(chat())
  }
  await page.reload()
  await page.getByRole('heading', { level: 2, name: 'Models and providers' }).waitFor()
  await row().getByText('open', { exact: true }).waitFor()
  const cells = await row().getByRole('cell').allTextContents()
  const errorRate = Number(cells[4]?.replace('%', ''))
  assert.ok(errorRate > 0 && errorRate < 100, `error rate ${cells[4]} counts the failures among the attempts`)
  await screenshotBoth(page, 'endpoint-health')
  // The model's own page shows the same row.
  await page.getByRole('table', { name: 'models' }).getByRole('link', { name: 'test/model' }).click()
  await page.getByRole('heading', { level: 2, name: 'test/model' }).waitFor()
  await row().getByText('open', { exact: true }).waitFor()
})

test('workspaces: create one, see it listed, open its members', { skip }, async () => {
  await goTo(page, '#/workspaces', 'Workspaces')
  const form = page.getByRole('form', { name: 'create workspace' })
  await form.getByLabel('Name').fill('Team A')
  await form.getByLabel('Slug').fill('Team A')
  await form.getByRole('button', { name: 'Create workspace' }).click()
  await form
    .getByRole('alert')
    .filter({ hasText: /^400: .*slug/ })
    .waitFor()
  await form.getByLabel('Slug').fill('team-a')
  await form.getByRole('button', { name: 'Create workspace' }).click()
  const table = page.getByRole('table', { name: 'workspaces' })
  await table.getByText('team-a').waitFor()
  await table.getByRole('row').filter({ hasText: 'team-a' }).getByRole('button', { name: 'Members' }).click()
  await page.getByRole('region', { name: 'members' }).waitFor()
  await screenshotBoth(page, 'workspaces')
})

test('guardrails: create one, and an assignment the API refuses shows its message', { skip }, async () => {
  await goTo(page, '#/guardrails', 'Guardrails')
  const form = page.getByRole('form', { name: 'create guardrail' })
  await form.getByLabel('Name').fill('only test models')
  await form.getByLabel('Allowed models').fill('test/model')
  await form.getByRole('button', { name: 'Create guardrail' }).click()
  const table = page.getByRole('table', { name: 'guardrails' })
  await table.getByText('only test models').waitFor()
  await table.getByRole('button', { name: 'Assignments' }).first().click()
  const assign = page.getByRole('form', { name: 'assign keys' })
  await assign.getByLabel('Key hashes').fill('not-a-key-hash')
  await assign.getByRole('button', { name: 'Assign', exact: true }).click()
  await assign
    .getByRole('alert')
    .filter({ hasText: /^4\d\d: / })
    .waitFor()
  await screenshotBoth(page, 'guardrails')
})

test(
  'presets, observability, private endpoints, batches and interns pages load or show the API refusal',
  { skip },
  async () => {
    for (const [hash, heading, table] of [
      ['#/presets', 'Presets', 'presets'],
      ['#/observability', 'Observability destinations', 'destinations'],
      ['#/private-endpoints', 'Private endpoints', 'private endpoints'],
    ] as const) {
      await goTo(page, hash, heading)
      await page.getByRole('main').getByText('None.').first().waitFor()
      assert.equal(await page.getByRole('table', { name: table }).count(), 0, `${heading}: nothing listed yet`)
      assert.equal(await page.getByRole('alert').count(), 0, `${heading} shows no error`)
      await screenshotBoth(page, hash.slice(2))
    }
    // The batch, intern and vault routes answer workspace keys only: a management key sees why.
    await goTo(page, '#/batches', 'Batches')
    await page.getByRole('alert').filter({ hasText: 'GET /api/v1/batches: 403' }).waitFor()
    await screenshotBoth(page, 'batches')
    await goTo(page, '#/interns', 'Interns and vault')
    await page.getByRole('alert').filter({ hasText: 'GET /api/v1/interns: 401' }).waitFor()
    await screenshotBoth(page, 'interns')
  },
)

test('the new key signs in to its own read-only view', { skip }, async () => {
  await page.getByRole('button', { name: 'Sign out' }).click()
  assert.equal(await page.evaluate('sessionStorage.length'), 0, 'signing out forgets the key')
  await signIn(page, plaintext)
  await page.getByText('self-service').waitFor()
  assert.equal(await page.getByRole('link', { name: 'Keys' }).count(), 0, 'no management pages')
  await goTo(page, '#/overview', 'Overview')
  await page.getByRole('heading', { name: 'This key' }).waitFor()
  // Read again on the overview: the three calls' spend against the key's $5 lifetime limit.
  await page.getByRole('meter', { name: '$0.06 of $5.00 in total' }).waitFor()
  await screenshotBoth(page, 'self-service-overview')
  await goTo(page, '#/generations', 'Generations')
  await page.getByRole('table', { name: 'generations' }).getByText('test/model').first().waitFor()
  await goTo(page, '#/batches', 'Batches')
  await page.getByRole('table', { name: 'batches' }).or(page.getByText('None.')).first().waitFor()
  assert.equal(await page.getByRole('alert').count(), 0, 'an inference key reads its batches')
  assert.ok(
    admin.requestedUrls.every((url) => !url.includes(plaintext) && !url.includes(gateway.adminKey)),
    'no key travels in a URL',
  )
})
