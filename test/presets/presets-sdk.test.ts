// @openrouter/sdk as the client over a real socket: every presets method must accept our responses.
// (The SDK has no end-users methods.)
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { OpenRouter } from '@openrouter/sdk'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { mintApiKey } from './mint-api-key.ts'

let gateway: TestGateway
let client: OpenRouter

before(async () => {
  gateway = await startTestGateway()
  const base = await gateway.listen()
  client = new OpenRouter({ apiKey: (await mintApiKey(gateway, 'inference')).plaintext, serverURL: `${base}/api/v1` })
})
after(() => gateway.close())

test('create from each format, then get, list, listVersions and getVersion', async () => {
  const first = await client.presets.createPresetsChatCompletions({
    slug: 'sdk-bot',
    chatRequest: {
      model: 'openai/gpt-4o',
      temperature: 0.4,
      messages: [
        { role: 'system', content: 'Stay on topic.' },
        { role: 'user', content: 'hi' },
      ],
    },
  })
  assert.equal(first.data.slug, 'sdk-bot')
  assert.equal(first.data.designatedVersion?.version, 1)
  assert.equal(first.data.designatedVersion?.systemPrompt, 'Stay on topic.')
  assert.deepEqual(first.data.designatedVersion?.config, { model: 'openai/gpt-4o', temperature: 0.4 })

  const second = await client.presets.createPresetsResponses({
    slug: 'sdk-bot',
    responsesRequest: { model: 'openai/gpt-4o-mini', instructions: 'Short answers.', input: 'hi' },
  })
  assert.equal(second.data.designatedVersion?.version, 2)
  const third = await client.presets.createPresetsMessages({
    slug: 'sdk-bot',
    messagesRequest: { model: 'anthropic/claude', maxTokens: 100, messages: [{ role: 'user', content: 'hi' }] },
  })
  assert.equal(third.data.designatedVersion?.version, 3)
  assert.equal(third.data.designatedVersion?.systemPrompt, null)

  const fetched = await client.presets.get({ slug: 'sdk-bot' })
  assert.equal(fetched.data.designatedVersionId, third.data.designatedVersion?.id)

  const listed = await client.presets.list({ limit: 10 })
  assert.equal(listed.result.totalCount, 1)
  assert.equal(listed.result.data[0]?.slug, 'sdk-bot')

  const versions = await client.presets.listVersions({ slug: 'sdk-bot' })
  assert.deepEqual(
    versions.result.data.map((version) => version?.version),
    [1, 2, 3],
  )

  const version = await client.presets.getVersion({ slug: 'sdk-bot', version: '2' })
  assert.equal(version.data?.systemPrompt, 'Short answers.')
  assert.deepEqual(version.data?.config, { model: 'openai/gpt-4o-mini' })
})

test('errors reach the SDK as its typed 400 and 404 errors', async () => {
  await assert.rejects(
    client.presets.getVersion({ slug: 'sdk-bot', version: 'two' }),
    (error: Error) => error.constructor.name === 'BadRequestResponseError',
  )
  await assert.rejects(
    client.presets.getVersion({ slug: 'sdk-bot', version: '9' }),
    (error: Error) => error.constructor.name === 'NotFoundResponseError',
  )
  await assert.rejects(
    client.presets.get({ slug: 'absent' }),
    (error: Error) => error.constructor.name === 'NotFoundResponseError',
  )
})
