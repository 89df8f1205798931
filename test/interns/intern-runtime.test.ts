// The intern runtime against the real gateway: provision -> provisioning (progress) -> running with a
// working directory, a runtime key and a hostname; suspend -> stopped; provision resumes; a restart
// brings running interns back; delete tears the intern down (the row, its vault and its keys go).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { createApiKeysRepository } from '../../src/store/repositories/api-keys-repository.ts'
import { runtimeKeyName } from '../../src/interns/intern-runtime.ts'
import { call, createInternVia, mintKey } from './intern-test-kit.ts'

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 15_000
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

const statusOf = async (gateway: TestGateway, key: string, id: string) =>
  (await call(gateway, key, { method: 'GET', url: `/api/v1/interns/${id}` })).json

async function waitForStatus(gateway: TestGateway, key: string, id: string, status: string, seen?: Set<string>) {
  return until(`status ${status}`, async () => {
    const intern = await statusOf(gateway, key, id)
    seen?.add(JSON.stringify([intern?.status, intern?.progress?.step_number ?? null]))
    return intern?.status === status ? intern : undefined
  })
}

test('provision, suspend, resume, restart and delete', async () => {
  const first = await startTestGateway({ yaml: 'interns:\n  domain: Agents.Example.test.\n' })
  let gateway: TestGateway = first
  // internals: the runtime's handles (working directory, runtime key, hostname routing) are not in the API.
  const runtime = () => gateway.internals.interns.runtime
  try {
    const workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
    const key = await mintKey(gateway, 'inference', workspaceId)
    const intern = await createInternVia(gateway, key, { name: 'build-bot', provision: true })
    const seen = new Set<string>()
    const running = await waitForStatus(gateway, key, intern.id, 'running', seen)
    assert.equal(running.hostname, 'build-bot.agents.example.test')
    assert.equal(running.progress, null)
    const handle = runtime().get(intern.id)
    assert.ok(handle !== undefined)
    assert.equal(existsSync(handle.workingDirectory), true)
    assert.equal(handle.key.internId, intern.id)
    assert.equal(handle.key.kind, 'intern')
    assert.equal(runtime().findByHostname('build-bot.agents.example.test')?.id, intern.id)

    const url = `/api/v1/interns/${intern.id}`
    assert.equal((await call(gateway, key, { method: 'POST', url: `${url}/suspend` })).status, 200)
    await until('the handle to go', async () => (runtime().get(intern.id) === undefined ? true : undefined))
    assert.equal((await statusOf(gateway, key, intern.id)).status, 'stopped')
    assert.equal((await call(gateway, key, { method: 'POST', url: `${url}/provision` })).status, 202)
    await waitForStatus(gateway, key, intern.id, 'running')
    const keys = await createApiKeysRepository(gateway.store.db).list({ kinds: ['intern'] })
    assert.equal(
      keys.filter((candidate) => candidate.internId === intern.id && candidate.name === runtimeKeyName).length,
      1,
      'resuming reuses the runtime key',
    )

    const databaseUrl = gateway.database.url
    await gateway.gateway.close()
    gateway = await startTestGateway({ databaseUrl, yaml: 'interns:\n  domain: agents.example.test\n' })
    const restarted = runtime().get(intern.id)
    assert.equal(restarted?.hostname, 'build-bot.agents.example.test', 'running interns come back on start')

    assert.equal((await call(gateway, key, { method: 'DELETE', url })).status, 202)
    await until('the intern to be removed', async () =>
      (await call(gateway, key, { method: 'GET', url })).status === 404 ? true : undefined,
    )
    assert.equal(existsSync(restarted.workingDirectory), false)
    const left = await createApiKeysRepository(gateway.store.db).list({
      kinds: ['intern'],
      includeDisabled: true,
    })
    assert.equal(
      left.some((candidate) => candidate.internId === intern.id),
      false,
    )
    assert.equal(
      (await call(gateway, key, { method: 'GET', url: `/api/v1/vault/interns/${intern.id}/secrets` })).status,
      404,
    )
  } finally {
    await gateway.close()
    if (gateway !== first) await first.database.dispose()
  }
})
