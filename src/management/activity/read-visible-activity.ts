// GET /api/v1/activity: daily rows per model and provider endpoint within the key's scope (the same as
// the generations listing's), in OpenRouter's ActivityItem shape, as the finished JSON body: the store
// builds the items' text (read-daily-activity.ts), so no item becomes an object on the way.
import type { Clock } from '../../domain/clock.ts'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { GenerationStore } from '../../generations/generation-store.ts'
import { recordScope } from '../generations/record-scope.ts'
import { activityDays } from './activity-days.ts'
import type { ActivityQuery } from './schema.ts'

/** The JSON text of the answer, `{"data":[...]}`. */
export async function readVisibleActivity(
  store: GenerationStore,
  clock: Clock,
  key: ApiKeyRecord,
  query: ActivityQuery,
): Promise<string> {
  const days = activityDays(query, clock.now())
  const scope = recordScope(key, { workspaceId: query.workspace_id, keyHash: query.api_key_hash })
  const byWorkspace = query.group_by === 'workspace'
  const items = await store.dailyActivityJson({ ...scope, ...days, creatorUserId: query.user_id, byWorkspace })
  return `{"data":[${items}]}`
}
