// GET /api/v1/generations: a page of the generation records the key may read, newest first, with the
// keyset cursor of the next page.
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { GenerationStore } from '../../generations/generation-store.ts'
import { decodeKeysetCursor, encodeKeysetCursor } from '../../http/keyset-cursor.ts'
import { apiTypeFilters, statusFilters, type ListGenerationsQuery } from './list-schema.ts'
import { presentGeneration } from './present-generation.ts'
import { recordScope } from './record-scope.ts'
import { checkTimeRange, parseTimeBound } from './time-bound.ts'

export async function listVisibleGenerations(store: GenerationStore, key: ApiKeyRecord, query: ListGenerationsQuery) {
  const after =
    query.cursor === undefined ? null : decodeKeysetCursor(query.cursor, 'cursor', /^gen-[0-9A-Za-z-]{1,124}$/)
  const from = parseTimeBound(query.from, 'from')
  const to = parseTimeBound(query.to, 'to')
  checkTimeRange(from, to)
  const scope = recordScope(key, { workspaceId: query.workspace_id, keyHash: query.api_key_hash })
  const apiType = query.api_type === undefined ? undefined : apiTypeFilters[query.api_type]
  const limit = query.limit ?? 50
  const records = await store.list(
    {
      ...scope,
      model: query.model,
      provider: query.provider,
      status: query.status === undefined ? undefined : statusFilters[query.status],
      apiType: apiType?.apiType,
      dialect: apiType?.dialect,
      from,
      to,
      endUser: query.user,
      sessionId: query.session_id,
    },
    after,
    limit + 1,
  )
  const page = records.slice(0, limit)
  const last = page.at(-1)
  return {
    data: page.map(presentGeneration),
    next_cursor:
      records.length > limit && last !== undefined
        ? encodeKeysetCursor({ createdAt: last.createdAt, id: last.id })
        : null,
  }
}
