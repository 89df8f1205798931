// GET /api/v1/activity: daily rows per model and provider endpoint within the key's scope (the same as
// the generations listing's), in OpenRouter's ActivityItem shape.
import type { Clock } from '../../domain/clock.ts'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import { nanoToUsd } from '../../domain/money.ts'
import type { GenerationStore } from '../../generations/generation-store.ts'
import { recordScope } from '../generations/record-scope.ts'
import { activityDays } from './activity-days.ts'
import type { ActivityQuery } from './schema.ts'

export async function readVisibleActivity(
  store: GenerationStore,
  clock: Clock,
  key: ApiKeyRecord,
  query: ActivityQuery,
) {
  const days = activityDays(query, clock.now())
  const scope = recordScope(key, { workspaceId: query.workspace_id, keyHash: query.api_key_hash })
  const byWorkspace = query.group_by === 'workspace'
  const rows = await store.dailyActivity({ ...scope, ...days, creatorUserId: query.user_id, byWorkspace })
  return {
    data: rows.map((row) => ({
      date: row.day,
      model: row.model,
      model_permaslug: row.model,
      endpoint_id: row.endpointId,
      provider_name: row.provider,
      usage: nanoToUsd(row.usageNano),
      byok_usage_inference: nanoToUsd(row.byokUsageNano),
      requests: row.requests,
      prompt_tokens: row.promptTokens,
      completion_tokens: row.completionTokens,
      reasoning_tokens: row.reasoningTokens,
      ...(byWorkspace && row.workspaceId !== null ? { workspace_id: row.workspaceId } : {}),
    })),
  }
}
