// The workspace settings inference reads, from the in-memory workspace cache (no store access).
import { stableFraction } from '../domain/stable-fraction.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { CachedWorkspace } from '../workspaces/workspace-cache.ts'
import type { WorkspaceInferenceSettings } from './call/call-policy.ts'

const sorts = new Set(['price', 'throughput', 'latency'])

export function workspaceSettingsFrom(lookup: (workspaceId: string) => CachedWorkspace | undefined) {
  // The cache replaces a workspace's object when it changes, so settings derived from one object stay valid.
  const derived = new WeakMap<CachedWorkspace, WorkspaceInferenceSettings>()
  const none = settingsOf(undefined)
  return (key: ApiKeyRecord): WorkspaceInferenceSettings => {
    const workspace = lookup(key.workspaceId)
    if (workspace === undefined) return none
    let settings = derived.get(workspace)
    if (settings === undefined) {
      settings = settingsOf(workspace)
      derived.set(workspace, settings)
    }
    return settings
  }
}

function settingsOf(workspace: CachedWorkspace | undefined): WorkspaceInferenceSettings {
  const sort = workspace?.defaultProviderSort ?? null
  return {
    defaultTextModel: workspace?.defaultTextModel ?? null,
    defaultProviderSort: sort !== null && sorts.has(sort) ? (sort as 'price' | 'throughput' | 'latency') : null,
    disabledServerTools: workspace === undefined ? [] : [...workspace.disabledServerTools],
    budgets: workspace?.budgets.map((budget) => ({ interval: budget.interval, limitUsd: budget.limitUsd })) ?? [],
    // io_logging_api_key_ids holds integers (the public API's key ids); Switchyard keys have none, so
    // the allowlist cannot select keys yet and the workspace switch and sampling rate decide.
    shouldStoreContent: (_key, generationId) =>
      workspace !== undefined &&
      workspace.ioLogging.enabled &&
      stableFraction(generationId) < workspace.ioLogging.samplingRate,
  }
}
