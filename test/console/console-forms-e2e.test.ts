// The console's create forms in a real browser (Debian's Chromium): presets and their versions,
// observability destinations (and their test events), private endpoints with their validation checks,
// rate-limit rules of a key and a workspace (and their limits edited in place), and a key's edit form.
// Each form creates something through the UI that then shows in its list, and shows an error the API
// answered, as the API wrote it.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import type { FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import type { TestGateway } from '../support/test-gateway.ts'
import { consoleSkip as skip, startConsoleWorld, type ConsoleWorld } from './console-world.ts'
import { goTo, openConsole, screenshotBoth, signIn } from './console-pages.ts'
import { startRecordingServer, type RecordingServer } from '../observability/support/recording-server.ts'

let world: ConsoleWorld | undefined
let upstream: FakeUpstream
let gateway: TestGateway
let page: Page
let receiver: RecordingServer
let keyHash = ''

before(async () => {
  if (skip !== false) return
  // The fake upstream listens on 127.0.0.1: private endpoints and webhooks may call it.
  world = await startConsoleWorld(['egress: { allow_private_networks: true }'])
  ;({ upstream, gateway } = world)
  receiver = await startRecordingServer()
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: { authorization: `Bearer ${gateway.adminKey}` },
    payload: { name: 'limited-key', limit: 5, limit_reset: 'monthly', expires_at: '2099-01-31T23:59:59Z' },
  })
  keyHash = created.json<{ data: { hash: string } }>().data.hash
  page = (await openConsole(world.browser, world.base)).page
  await signIn(page, gateway.adminKey)
})

after(async () => {
  await receiver?.close()
  await world?.close()
})

/** Waits for the API's error in a form: `<status>: <message>` as the API wrote it. */
async function apiError(form: ReturnType<Page['getByRole']>, pattern: RegExp): Promise<void> {
  await form.getByRole('alert').filter({ hasText: pattern }).waitFor()
}

test(
  'presets: the API refuses a body without settings; a preset and its next version are created',
  { skip },
  async () => {
    await goTo(page, '#/presets', 'Presets')
    const form = page.getByRole('form', { name: 'create preset' })
    await form.getByLabel('Slug').fill('support-bot')
    await form.getByRole('button', { name: 'Create preset' }).click()
    await apiError(form, /^400: The body holds no preset settings/)
    await form.getByLabel('Model').fill('test/model')
    await form.getByLabel('System prompt').fill('You answer support questions.')
    await form.getByLabel('Temperature').fill('0.3')
    await form.getByRole('button', { name: 'Create preset' }).click()
    const table = page.getByRole('table', { name: 'presets' })
    await table.getByText('@preset/support-bot').waitFor()
    const versions = page.getByRole('table', { name: 'preset versions' })
    await versions.getByText('You answer support questions.').waitFor()
    assert.match((await versions.locator('pre').first().textContent()) ?? '', /"temperature": 0.3/)
    // The next version, in the responses format: its instructions become the system prompt.
    await table.getByRole('row').filter({ hasText: 'support-bot' }).getByRole('button', { name: 'New version' }).click()
    const next = page.getByRole('form', { name: 'create preset' })
    await next.getByRole('heading', { name: 'New version of support-bot' }).waitFor()
    await next.getByLabel('Request format').selectOption('responses')
    await next.getByLabel('Model').fill('test/model')
    await next.getByLabel('System prompt').fill('Be brief.')
    await next.getByLabel('Other settings').fill('{"provider": ')
    await next.getByRole('button', { name: 'Add version' }).click()
    await apiError(next, /^Other settings are not JSON/)
    await next.getByLabel('Other settings').fill('{"provider": {"sort": "price"}}')
    await next.getByRole('button', { name: 'Add version' }).click()
    await versions.getByRole('cell', { name: '2 (designated)' }).waitFor()
    await versions.getByText('Be brief.').waitFor()
    assert.equal(await versions.locator('tbody tr').count(), 2)
    await screenshotBoth(page, 'presets-created')
  },
)

test('observability: the API refuses a URL with credentials; a webhook destination is created', { skip }, async () => {
  await goTo(page, '#/observability', 'Observability destinations')
  const form = page.getByRole('form', { name: 'create destination' })
  await form.getByLabel('Type').selectOption('webhook')
  await form.getByLabel('Name').fill('traces hook')
  await form.getByLabel('config.url').fill('https://user:secret@hooks.example.com/in')
  await form.getByRole('button', { name: 'Add destination' }).click()
  await apiError(form, /^400: .*credentials in the URL are not allowed/)
  await form.getByLabel('config.url').fill(`${upstream.url}/hook`)
  await form.getByLabel('config.method').selectOption('PUT')
  await form.getByLabel('Sampling rate').fill('0.5')
  await form.getByRole('button', { name: 'Add destination' }).click()
  const row = page.getByRole('table', { name: 'destinations' }).getByRole('row').filter({ hasText: 'traces hook' })
  await row.getByText('enabled', { exact: true }).waitFor()
  await row.getByText('webhook', { exact: true }).waitFor()
  // The types and their fields come from the API: the deliverable types only, and the type's own fields
  // (langfuse asks for its keys, the secret one as a password).
  const offered = await form.getByLabel('Type').locator('option').allTextContents()
  assert.equal(offered.length, 12)
  assert.ok(offered.includes('s3') && !offered.includes('datadog'), offered.join(', '))
  await form.getByLabel('Type').selectOption('langfuse')
  assert.equal(await form.getByLabel('config.secretKey').getAttribute('type'), 'password')
  assert.equal(await form.getByLabel('config.url').count(), 0)
  await screenshotBoth(page, 'observability-created')
})

test('observability: a test event shows what the destination answered', { skip }, async () => {
  await goTo(page, '#/observability', 'Observability destinations')
  const table = page.getByRole('table', { name: 'destinations' })
  // The fake upstream has no /hook route: it answers 404, and the button says so.
  const refusing = table.getByRole('row').filter({ hasText: 'traces hook' })
  await refusing.getByRole('button', { name: 'Send test event' }).click()
  await refusing
    .getByRole('status')
    .filter({ hasText: 'Not delivered (HTTP 404): webhook answered HTTP 404' })
    .waitFor()
  const form = page.getByRole('form', { name: 'create destination' })
  await form.getByLabel('Type').selectOption('webhook')
  await form.getByLabel('Name').fill('receiving hook')
  await form.getByLabel('config.url').fill(`${receiver.url}/events`)
  await form.getByRole('button', { name: 'Add destination' }).click()
  const receiving = table.getByRole('row').filter({ hasText: 'receiving hook' })
  await receiving.getByRole('button', { name: 'Send test event' }).click()
  const status = receiving.getByRole('status').filter({ hasText: /^Delivered \(gen-test-/ })
  await status.waitFor()
  const generationId = /\((gen-test-[^)]+)\)/.exec((await status.textContent()) ?? '')?.[1]
  assert.equal(receiver.requests.length, 1)
  assert.equal(JSON.parse(receiver.requests[0]!.body.toString('utf8')).id, generationId)
  await screenshotBoth(page, 'observability-test-event')
  // Nothing was recorded: the counts stay at zero and the refusal left no last error.
  await receiving.getByRole('cell', { name: '0 / 0 / 0 / 0' }).waitFor()
  await goTo(page, '#/keys', 'Keys')
  await goTo(page, '#/observability', 'Observability destinations')
  await refusing.getByRole('cell', { name: '0 / 0 / 0 / 0' }).waitFor()
  assert.equal(await refusing.getByText('webhook answered HTTP 404').count(), 0)
})

test('private endpoints: the API refuses an unknown provider; a draft is created and validated', { skip }, async () => {
  await goTo(page, '#/private-endpoints', 'Private endpoints')
  const form = page.getByRole('form', { name: 'create private endpoint' })
  await form.getByLabel('Model id (clients send it)').fill('acme/llama')
  await form.getByLabel('Provider').fill('no-such-api')
  await form.getByLabel('Upstream model id').fill('m1')
  await form.getByLabel('Base URL').fill(upstream.url)
  await form.getByLabel('Prompt price').fill('0.0000004')
  await form.getByLabel('Completion price').fill('0.0000008')
  await form.getByRole('button', { name: 'Create draft' }).click()
  await apiError(form, /^400: Unknown provider_slug "no-such-api"/)
  await form.getByLabel('Provider').fill('openai-chat')
  await form.getByLabel('Declared region').selectOption('europe')
  await form.getByRole('button', { name: 'Create draft' }).click()
  const row = page.getByRole('table', { name: 'private endpoints' }).getByRole('row').filter({ hasText: 'acme/llama' })
  await row.getByText('draft', { exact: true }).waitFor()
  // Validation runs in a workspace, which the API requires.
  await row.getByRole('button', { name: 'Validate' }).click()
  await row
    .getByRole('alert')
    .filter({ hasText: /^400: .*workspace_id/ })
    .waitFor()
  await page.getByLabel('Validate in workspace').fill('default')
  upstream.script({ type: 'completion', text: 'ok' }, { type: 'completion', text: 'ok' })
  await row.getByRole('button', { name: 'Validate' }).click()
  const checks = page.getByRole('table', { name: 'checks' })
  await page.getByRole('heading', { name: /^Checks of .*: passed$/ }).waitFor()
  await checks.getByRole('row').filter({ hasText: 'auth_ok' }).getByText('passed').waitFor()
  // A passed validation lets the draft be activated.
  await row.getByRole('button', { name: 'activate' }).click()
  await row.getByText('active', { exact: true }).waitFor()
  await screenshotBoth(page, 'private-endpoints-created')
})

test('rate limits: a key rule is created from the key list, shown on the key, and deleted', { skip }, async () => {
  await goTo(page, '#/keys', 'Keys')
  const keyRow = page.getByRole('table', { name: 'keys' }).getByRole('row').filter({ hasText: 'limited-key' })
  await keyRow.getByText('defaults').waitFor()
  await keyRow.getByRole('link', { name: 'rate limits of limited-key' }).click()
  await page.getByRole('heading', { level: 2, name: 'Rate limits' }).waitFor()
  const form = page.getByRole('form', { name: 'create rate-limit rule' })
  assert.equal(await form.getByLabel('Key hash').inputValue(), keyHash, 'the form starts on the key')
  await form.getByRole('button', { name: 'Add rule' }).click()
  await apiError(form, /^400: A rate-limit rule needs requests_per_minute or tokens_per_minute/)
  await form.getByLabel('Requests per minute').fill('60')
  await form.getByRole('button', { name: 'Add rule' }).click()
  const rules = page.getByRole('table', { name: 'rate-limit rules' })
  await rules.getByRole('cell', { name: '60 req/min' }).waitFor()
  await form.getByLabel('Model').fill('test/model')
  await form.getByLabel('Tokens per minute').fill('10000')
  await form.getByRole('button', { name: 'Add rule' }).click()
  await rules.getByRole('cell', { name: '10,000 tokens/min' }).waitFor()
  await form.getByLabel('Model').fill('test/model')
  await form.getByLabel('Requests per minute').fill('5')
  await form.getByRole('button', { name: 'Add rule' }).click()
  await apiError(form, /^409: /)
  await screenshotBoth(page, 'rate-limits')
  // The key object lists its rules, and the key list shows them.
  await goTo(page, '#/keys', 'Keys')
  await keyRow.getByText('every model: 60 req/min').waitFor()
  await keyRow.getByText('test/model: 10,000 tokens/min').waitFor()
  await keyRow.getByRole('link', { name: 'rate limits of limited-key' }).click()
  page.once('dialog', (dialog) => void dialog.accept())
  await rules.getByRole('row').filter({ hasText: 'every model' }).getByRole('button', { name: 'Delete' }).click()
  await rules.getByRole('cell', { name: '60 req/min' }).waitFor({ state: 'detached' })
  assert.equal(await rules.locator('tbody tr').count(), 1)
})

test('rate limits: a workspace rule is created from the workspaces page', { skip }, async () => {
  await goTo(page, '#/workspaces', 'Workspaces')
  const row = page.getByRole('table', { name: 'workspaces' }).getByRole('row').filter({ hasText: 'default' })
  await row.getByRole('link', { name: 'Rate limits' }).first().click()
  await page.getByRole('heading', { level: 2, name: 'Rate limits' }).waitFor()
  const form = page.getByRole('form', { name: 'create rate-limit rule' })
  assert.equal(await form.getByLabel('Set on').inputValue(), 'workspace')
  await form.getByLabel('Requests per minute').fill('600')
  await form.getByRole('button', { name: 'Add rule' }).click()
  const rules = page.getByRole('table', { name: 'rate-limit rules' })
  await rules.getByRole('cell', { name: '600 req/min' }).waitFor()
  // The workspace's rules and its keys' rules: the key rules made above are in the default workspace.
  assert.equal(await rules.getByRole('row').filter({ hasText: 'workspace' }).count(), 1)
  assert.equal(await rules.locator('tbody tr').count(), 2)
  await page.getByRole('link', { name: 'all rules' }).click()
  await rules.getByRole('cell', { name: '10,000 tokens/min' }).waitFor()
  await screenshotBoth(page, 'rate-limits-all')
})

test("rate limits: a rule's limits are edited in place", { skip }, async () => {
  await goTo(page, '#/rate-limits', 'Rate limits')
  const rules = page.getByRole('table', { name: 'rate-limit rules' })
  // The workspace rule's row (its limits cell turns into the form while it is edited).
  const row = rules.getByRole('row').filter({ has: page.getByRole('cell', { name: 'workspace', exact: true }) })
  await row.getByRole('cell', { name: '600 req/min' }).waitFor()
  await row.getByRole('button', { name: 'Edit limits' }).click()
  const form = row.getByRole('form', { name: 'edit rate-limit rule' })
  assert.equal(await form.getByLabel('Requests per minute').inputValue(), '600')
  assert.equal(await form.getByLabel('Tokens per minute').inputValue(), '')
  await form.getByLabel('Requests per minute').fill('0')
  await form.getByRole('button', { name: 'Save' }).click()
  assert.equal(await form.locator('input:invalid').count(), 1, 'the browser holds the API minimum of 1')
  await form.getByLabel('Requests per minute').fill('')
  await form.getByRole('button', { name: 'Save' }).click()
  await apiError(form, /^400: A rate-limit rule needs requests_per_minute or tokens_per_minute/)
  await form.getByLabel('Requests per minute').fill('1200')
  await form.getByLabel('Tokens per minute').fill('50000')
  await form.getByRole('button', { name: 'Save' }).click()
  await form.waitFor({ state: 'detached' })
  const edited = rules.getByRole('cell', { name: '1,200 req/min · 50,000 tokens/min' })
  await edited.waitFor()
  const answer = await gateway.inject({
    method: 'GET',
    url: '/api/v1/rate-limits',
    headers: { authorization: `Bearer ${gateway.adminKey}` },
  })
  const saved = answer
    .json<{ data: { scope: string; requests_per_minute: number | null; tokens_per_minute: number | null }[] }>()
    .data.filter((rule) => rule.scope === 'workspace')
  assert.deepEqual(
    saved.map((rule) => [rule.requests_per_minute, rule.tokens_per_minute]),
    [[1200, 50000]],
  )
  // Cancel leaves the limits as they were.
  await row.getByRole('button', { name: 'Edit limits' }).click()
  await form.getByLabel('Tokens per minute').fill('7')
  await form.getByRole('button', { name: 'Cancel' }).click()
  await edited.waitFor()
  await screenshotBoth(page, 'rate-limits-edited')
})

test("a key's edit form changes its limit and reset and shows its expiry read-only", { skip }, async () => {
  await goTo(page, '#/keys', 'Keys')
  const keyRow = page.getByRole('table', { name: 'keys' }).getByRole('row').filter({ hasText: 'limited-key' })
  await keyRow.getByRole('button', { name: 'Edit' }).click()
  const form = page.getByRole('form', { name: 'edit key' })
  await form.getByText('Expires: 2099-01-31T23:59:59.000Z').waitFor()
  await form.getByLabel('Limit (USD').fill('-2')
  await form.getByRole('button', { name: 'Save' }).click()
  assert.equal(await form.locator('input:invalid').count(), 1, 'the browser holds the API minimum of 0')
  await form.getByLabel('Limit (USD').fill('7')
  await form.getByLabel('Limit resets').selectOption('weekly')
  await form.getByRole('button', { name: 'Save' }).click()
  await form.waitFor({ state: 'detached' })
  const answer = await gateway.inject({
    method: 'GET',
    url: `/api/v1/keys/${keyHash}`,
    headers: { authorization: `Bearer ${gateway.adminKey}` },
  })
  const saved = answer.json<{ data: { limit: number; limit_reset: string } }>().data
  assert.deepEqual([saved.limit, saved.limit_reset], [7, 'weekly'])
  await keyRow.getByRole('meter', { name: '$0.00 of $7.00 weekly' }).waitFor()
  await screenshotBoth(page, 'keys-edited')
})
