// The response-cache settings of a call's key and of its workspace, read from the records the key cache
// and the workspace cache already hold (no store read per request). A workspace not in the cache leaves
// caching to the request, as a workspace without settings does.
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { CachedWorkspace } from '../workspaces/workspace-cache.ts'
import { noCacheSettings, type CacheSettings } from './call/cache-choice.ts'

export function responseCacheSettings(
  key: ApiKeyRecord,
  workspace: CachedWorkspace | undefined,
): { readonly key: CacheSettings; readonly workspace: CacheSettings } {
  return {
    key: { enabled: key.responseCacheEnabled, ttlSeconds: key.responseCacheTtlSeconds },
    workspace:
      workspace === undefined
        ? noCacheSettings
        : { enabled: workspace.responseCacheEnabled, ttlSeconds: workspace.responseCacheTtlSeconds },
  }
}
