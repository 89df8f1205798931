// Cursor paging over 1,200 interns while other requests keep creating interns: every intern that
// existed before paging began appears exactly once, in strictly newest-first order.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { call, callerFor, mintKey, seedingArea, type ItemList } from './intern-test-kit.ts'

for (const [engine, url] of [
  ['sqlite', undefined],
  ['postgres', postgresTarget().url],
] as const) {
  const skip = engine === 'postgres' ? postgresTarget().skip : false
  test(`1,200 interns paged with concurrent inserts: no duplicates, no gaps (${engine})`, { skip }, async () => {
    const gateway = await startTestGateway(url === undefined ? {} : { postgresUrl: url })
    try {
      const workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
      const key = await mintKey(gateway, 'inference', workspaceId)
      const seed = seedingArea(gateway)
      const caller = callerFor(workspaceId)
      const existing = new Set<string>()
      for (let batch = 0; batch < 12; batch += 1) {
        const created = await Promise.all(
          Array.from({ length: 100 }, (_, index) =>
            seed.interns.create(caller, { name: `i${batch}-${index}` }, undefined),
          ),
        )
        for (const { intern } of created) existing.add(intern.id)
      }
      assert.equal(existing.size, 1200)

      const seen: { id: string; created_at: string }[] = []
      let cursor: string | undefined
      let pages = 0
      let inserted = 0
      do {
        const query = `limit=97${cursor === undefined ? '' : `&starting_after=${cursor}`}`
        const [page] = await Promise.all([
          call<ItemList>(gateway, key, { method: 'GET', url: `/api/v1/interns?${query}` }),
          ...Array.from({ length: 3 }, () =>
            seed.interns.create(caller, { name: `late${(inserted += 1)}` }, undefined),
          ),
        ])
        assert.equal(page.status, 200, page.text)
        seen.push(...page.json.data)
        cursor = page.json.has_more ? page.json.next_cursor : undefined
        if (page.json.has_more) assert.equal(typeof page.json.next_cursor, 'string')
        pages += 1
      } while (cursor !== undefined && pages < 100)

      const ids = seen.map((intern) => intern.id)
      assert.equal(new Set(ids).size, ids.length, 'no intern appears twice')
      const missing = [...existing].filter((id) => !ids.includes(id))
      assert.deepEqual(missing, [], 'every intern that existed before paging appears')
      for (let index = 1; index < seen.length; index += 1) {
        const previous = seen[index - 1]!
        const current = seen[index]!
        const ordered =
          previous.created_at > current.created_at ||
          (previous.created_at === current.created_at && previous.id > current.id)
        assert.ok(ordered, `newest first at position ${index}`)
      }
      assert.ok(pages >= 13, `paged in ${pages} pages`)
    } finally {
      await gateway.close()
    }
  })
}
