// PresetCache against a real store: loads designated versions at start and follows 'preset' changes.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { bootstrapIdentity } from '../../src/identity/bootstrap-identity.ts'
import { systemClock } from '../../src/domain/clock.ts'
import { ChangeBus } from '../../src/events/change-bus.ts'
import { createPresetsRepository } from '../../src/store/repositories/presets-repository.ts'
import { PresetCache } from '../../src/presets/preset-cache.ts'
import { storeEngines, useMigratedStore } from '../support/test-store.ts'

for (const engine of storeEngines()) {
  describe(`preset cache on ${engine.name}`, { skip: engine.skip }, () => {
    let workspaceId: string
    const store = useMigratedStore(engine, async (opened) => {
      workspaceId = (await bootstrapIdentity(opened, systemClock, null)).defaultWorkspaceId
    })

    const append = (slug: string, config: object, systemPrompt: string | null = null) =>
      createPresetsRepository(store().db).appendVersion({
        workspaceId,
        slug,
        creatorUserId: null,
        creatorId: 'tester',
        config: JSON.stringify(config),
        systemPrompt,
        now: new Date().toISOString(),
        newId: randomUUID,
      })

    test('load() holds the designated version of every preset; changes on the bus refresh it', async () => {
      await append('alpha', { model: 'a/1' }, 'Prompt A')
      await append('alpha', { model: 'a/2' }, 'Prompt A2')
      await append('beta', { temperature: 0.5 })
      const bus = new ChangeBus()
      const errors: unknown[] = []
      const cache = new PresetCache(createPresetsRepository(store().db), bus, (error) => errors.push(error))
      await cache.load()
      assert.deepEqual(cache.get(workspaceId, 'alpha'), {
        presetId: cache.get(workspaceId, 'alpha')?.presetId,
        workspaceId,
        slug: 'alpha',
        version: 2,
        config: { model: 'a/2' },
        systemPrompt: 'Prompt A2',
      })
      assert.equal(cache.get(workspaceId, 'beta')?.version, 1)

      const { preset } = await append('beta', { temperature: 0.9 }, 'New')
      assert.equal(cache.get(workspaceId, 'beta')?.version, 1, 'unchanged until the change is announced')
      bus.publish('preset', preset.id)
      await cache.settled()
      assert.equal(cache.get(workspaceId, 'beta')?.version, 2)
      assert.deepEqual(cache.get(workspaceId, 'beta')?.config, { temperature: 0.9 })

      await store().db.updateTable('presets').set({ status: 'disabled' }).where('id', '=', preset.id).execute()
      bus.publish('preset', preset.id)
      await cache.settled()
      assert.equal(cache.get(workspaceId, 'beta'), undefined, 'a disabled preset is not applied')

      cache.close()
      await append('alpha', { model: 'a/3' })
      bus.publish('preset', cache.get(workspaceId, 'alpha')!.presetId)
      await cache.settled()
      assert.equal(cache.get(workspaceId, 'alpha')?.version, 2, 'a closed cache no longer listens')
      assert.deepEqual(errors, [])
    })

    test('a reload drops a preset that is gone from the store, although its deletion was never announced', async () => {
      const { preset } = await append('gamma', { model: 'g/1' })
      const cache = new PresetCache(createPresetsRepository(store().db), new ChangeBus(), (error) =>
        assert.fail(String(error)),
      )
      await cache.load()
      assert.equal(cache.get(workspaceId, 'gamma')?.version, 1)
      await store().db.deleteFrom('presets').where('id', '=', preset.id).execute()
      await cache.load()
      assert.equal(cache.get(workspaceId, 'gamma'), undefined)
      cache.close()
    })
  })
}
