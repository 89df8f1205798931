// An intern's own key reads only what keys of its intern made: generations, their content and batches of
// other keys of the workspace answer 404 to it, exactly as an unknown id does, while a workspace key and a
// management key still see them. Presets (a workspace route) answer 404 to it too.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { chatLines, isTerminal, model, startBatchFixture, type BatchAnswer } from '../batches/batch-fixture.ts'
import { bearer, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { createInternVia } from './intern-test-kit.ts'

const unknownGeneration = 'gen-0000000000000000000000000'
const postgres = postgresTarget()
const engines = [
  { name: 'sqlite', skip: false as string | false, postgresUrl: undefined as string | undefined },
  { name: 'postgres', skip: postgres.skip, postgresUrl: postgres.url },
]

interface Answer {
  readonly status: number
  readonly body: { readonly error?: { readonly code: number; readonly message: string } } & Record<string, unknown>
}

async function send(
  gateway: TestGateway,
  key: string,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<Answer> {
  const response = await gateway.inject({
    method,
    url,
    headers: bearer(key),
    ...(body === undefined ? {} : { payload: body as object }),
  })
  return { status: response.statusCode, body: response.json() }
}

async function chat(gateway: TestGateway, key: string, text: string): Promise<string> {
  const response = await gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: bearer(key),
    payload: { model, messages: [{ role: 'user', content: text }], max_tokens: 20 },
  })
  assert.equal(response.statusCode, 200, response.body)
  return String(response.headers['x-generation-id'])
}

async function mintInternKey(gateway: TestGateway, internId: string): Promise<string> {
  const minted = await send(gateway, gateway.adminKey, 'POST', `/api/v1/interns/${internId}/keys`, {})
  assert.equal(minted.status, 201)
  return String(minted.body.key)
}

async function finishedBatch(gateway: TestGateway, key: string, prefix: string): Promise<string> {
  const submitted = await send(gateway, key, 'POST', '/api/v1/batches', {
    endpoint: '/v1/chat/completions',
    model,
    requests: chatLines(2, prefix),
  })
  assert.equal(submitted.status, 202, JSON.stringify(submitted.body))
  const id = String(submitted.body.id)
  const deadline = Date.now() + 60_000
  for (;;) {
    const answer = await send(gateway, key, 'GET', `/api/v1/batches/${id}`)
    if (isTerminal(answer as unknown as BatchAnswer)) return id
    if (Date.now() > deadline) assert.fail(`batch ${id} did not finish: ${JSON.stringify(answer.body)}`)
    await sleep(25)
  }
}

/** The error an unknown id gets, with `id` standing where the unknown id was named. */
async function unknownError(
  gateway: TestGateway,
  key: string,
  url: (id: string) => string,
  unknown: string,
  id: string,
) {
  const answer = await send(gateway, key, 'GET', url(unknown))
  assert.equal(answer.status, 404)
  return { error: { ...answer.body.error, message: answer.body.error?.message.replace(unknown, id) } }
}

for (const engine of engines)
  test(
    `${engine.name}: an intern's key reads its intern's generations and batches, and 404 for every other key's`,
    { skip: engine.skip },
    () => checkRecordConfinement(engine.postgresUrl),
  )

async function checkRecordConfinement(postgresUrl: string | undefined): Promise<void> {
  const fixture = await startBatchFixture({ postgresUrl })
  const { gateway, key: workspaceKey } = fixture
  try {
    const intern = await createInternVia(gateway, workspaceKey, { name: 'confined' })
    const otherIntern = await createInternVia(gateway, workspaceKey, { name: 'neighbour' })
    const internKey = await mintInternKey(gateway, intern.id)
    const siblingKey = await mintInternKey(gateway, intern.id)
    const neighbourKey = await mintInternKey(gateway, otherIntern.id)

    const workspaceGeneration = await chat(gateway, workspaceKey, 'the workspace prompt')
    const internGeneration = await chat(gateway, internKey, 'the intern prompt')
    const neighbourGeneration = await chat(gateway, neighbourKey, 'the neighbour prompt')

    const metadata = (id: string) => `/api/v1/generation?id=${id}`
    const content = (id: string) => `/api/v1/generation/content?id=${id}`
    for (const url of [metadata, content]) {
      for (const hidden of [workspaceGeneration, neighbourGeneration]) {
        const answer = await send(gateway, internKey, 'GET', url(hidden))
        assert.equal(answer.status, 404, url(hidden))
        assert.deepEqual(answer.body, await unknownError(gateway, internKey, url, unknownGeneration, hidden))
        assert.ok(!JSON.stringify(answer.body).includes('prompt'))
      }
      for (const [key, id] of [
        [internKey, internGeneration],
        [siblingKey, internGeneration],
        [workspaceKey, workspaceGeneration],
        [workspaceKey, internGeneration],
        [gateway.adminKey, workspaceGeneration],
        [gateway.adminKey, internGeneration],
      ] as const)
        assert.equal((await send(gateway, key, 'GET', url(id))).status, 200, url(id))
    }
    const ownContent = await send(gateway, internKey, 'GET', content(internGeneration))
    assert.ok(JSON.stringify(ownContent.body).includes('the intern prompt'))

    const workspaceBatch = await finishedBatch(gateway, workspaceKey, 'workspace')
    const internBatch = await finishedBatch(gateway, internKey, 'intern')
    const neighbourBatch = await finishedBatch(gateway, neighbourKey, 'neighbour')
    const batchNotFound = { error: { code: 404, message: 'Batch not found.' } }
    const unknown = await send(gateway, internKey, 'GET', '/api/v1/batches/batch_000000000000000000000000')
    assert.deepEqual(unknown.body, batchNotFound)
    for (const hidden of [workspaceBatch, neighbourBatch]) {
      for (const [method, url] of [
        ['GET', `/api/v1/batches/${hidden}`],
        ['GET', `/api/beta/batches/${hidden}`],
        ['POST', `/api/v1/batches/${hidden}/cancel`],
        ['DELETE', `/api/v1/batches/${hidden}`],
      ] as const) {
        const answer = await send(gateway, internKey, method, url)
        assert.equal(answer.status, 404, `${method} ${url}`)
        assert.deepEqual(answer.body, batchNotFound)
      }
      const after = await send(gateway, internKey, 'GET', `/api/v1/batches?after=${hidden}`)
      const afterUnknown = await send(gateway, internKey, 'GET', '/api/v1/batches?after=batch_0')
      assert.equal(after.status, 400)
      assert.equal(after.body.error?.message, afterUnknown.body.error?.message.replace('batch_0', hidden))
    }
    const ids = async (key: string) =>
      ((await send(gateway, key, 'GET', '/api/v1/batches')).body.data as { id: string }[]).map((batch) => batch.id)
    assert.deepEqual(await ids(internKey), [internBatch])
    assert.deepEqual(await ids(siblingKey), [internBatch])
    assert.deepEqual(await ids(neighbourKey), [neighbourBatch])
    assert.deepEqual((await ids(workspaceKey)).sort(), [workspaceBatch, internBatch, neighbourBatch].sort())

    const own = await send(gateway, siblingKey, 'GET', `/api/v1/batches/${internBatch}`)
    assert.equal(own.status, 200)
    assert.equal((own.body.results as unknown[]).length, 2)
    assert.equal((await send(gateway, workspaceKey, 'GET', `/api/v1/batches/${internBatch}`)).status, 200)
    assert.equal((await send(gateway, internKey, 'DELETE', `/api/v1/batches/${internBatch}`)).status, 200)
    assert.equal((await send(gateway, workspaceKey, 'GET', `/api/v1/batches/${workspaceBatch}`)).status, 200)
  } finally {
    await fixture.close()
  }
}

test("presets, a workspace route, answer 404 to an intern's key and stay open to workspace keys", async () => {
  const fixture = await startBatchFixture()
  const { gateway, key: workspaceKey } = fixture
  try {
    const intern = await createInternVia(gateway, workspaceKey, { name: 'confined' })
    const internKey = await mintInternKey(gateway, intern.id)
    const preset = { model, messages: [{ role: 'system', content: 'house style' }] }
    const saved = await send(gateway, workspaceKey, 'POST', '/api/v1/presets/house/chat/completions', preset)
    assert.equal(saved.status, 200, JSON.stringify(saved.body))
    for (const [method, url] of [
      ['GET', '/api/v1/presets'],
      ['GET', '/api/v1/presets/house'],
      ['GET', '/api/v1/presets/house/versions'],
      ['GET', '/api/v1/presets/house/versions/1'],
      ['POST', '/api/v1/presets/house/chat/completions'],
    ] as const) {
      const answer = await send(gateway, internKey, method, url, method === 'POST' ? preset : undefined)
      assert.equal(answer.status, 404, `${method} ${url}`)
      assert.equal(answer.body.error?.code, 404)
    }
    assert.equal((await send(gateway, workspaceKey, 'GET', '/api/v1/presets/house')).status, 200)
    assert.equal((await send(gateway, gateway.adminKey, 'GET', '/api/v1/presets/house')).status, 200)
  } finally {
    await fixture.close()
  }
})
