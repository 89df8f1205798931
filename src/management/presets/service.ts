// Presets: named, versioned inference settings in one workspace. Versions are immutable and numbered
// from 1; creating from a body appends the next version and designates it. Every route is scoped to
// the calling key's workspace.
import { randomUUID } from 'node:crypto'
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { ChangeBus } from '../../events/change-bus.ts'
import type {
  NewPresetVersion,
  PresetRow,
  PresetVersionRow,
  PresetsRepository,
} from '../../store/repositories/presets-repository.ts'
import { extractPresetConfig, type ExtractedPreset } from '../../presets/extract-preset-config.ts'
import type { JsonObject, PresetFormat } from '../../presets/preset-format.ts'
import { isPresetSlug, presetSlugRule } from '../../presets/preset-slug.ts'
import type { Preset, PresetVersion, PresetWithDesignatedVersion } from './schema.ts'

const maxStoredVersion = 2_147_483_647

export function toPreset(row: PresetRow): Preset {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    status: row.status as Preset['status'],
    status_updated_at: row.status_updated_at,
    designated_version_id: row.designated_version_id,
    workspace_id: row.workspace_id,
    creator_user_id: row.creator_user_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function toPresetVersion(row: PresetVersionRow): PresetVersion {
  return {
    id: row.id,
    preset_id: row.preset_id,
    version: Number(row.version),
    config: JSON.parse(row.config) as JsonObject,
    system_prompt: row.system_prompt,
    creator_id: row.creator_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

function parseVersionNumber(text: string): number {
  if (!/^[0-9]+$/.test(text))
    throw new GatewayError(
      'invalid_request',
      `Invalid preset version "${text}": give the version number, an integer such as 1`,
    )
  return Number(text)
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code
  return code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'))
}

/** Appends a version; a unique violation means a concurrent append took the number, so retry once. */
async function appendVersion(
  presets: PresetsRepository,
  input: NewPresetVersion,
): Promise<{ preset: PresetRow; version: PresetVersionRow }> {
  try {
    return await presets.appendVersion(input)
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    try {
      return await presets.appendVersion(input)
    } catch (retryError) {
      if (!isUniqueViolation(retryError)) throw retryError
      throw new GatewayError('conflict', `Preset "${input.slug}" is being changed by another request; retry`, {
        cause: retryError,
      })
    }
  }
}

function newVersionInput(key: ApiKeyRecord, slug: string, extracted: ExtractedPreset, now: string): NewPresetVersion {
  return {
    workspaceId: key.workspaceId,
    slug,
    creatorUserId: key.creatorUserId,
    creatorId: key.creatorUserId ?? key.hash,
    config: JSON.stringify(extracted.config),
    systemPrompt: extracted.systemPrompt,
    now,
    newId: randomUUID,
  }
}

interface PresetsServiceDeps {
  readonly presets: PresetsRepository
  readonly clock: Clock
  readonly changeBus: ChangeBus
}

interface Page<T> {
  data: T[]
  total_count: number
}

export function createPresetsService(deps: PresetsServiceDeps) {
  return {
    list: (workspaceId: string, offset: number, limit: number): Promise<Page<Preset>> =>
      listPresets(deps, workspaceId, offset, limit),
    get: async (workspaceId: string, slug: string): Promise<PresetWithDesignatedVersion> =>
      withDesignatedVersion(deps, await findOrThrow(deps, workspaceId, slug)),
    listVersions: (workspaceId: string, slug: string, offset: number, limit: number): Promise<Page<PresetVersion>> =>
      listVersions(deps, workspaceId, slug, offset, limit),
    getVersion: (workspaceId: string, slug: string, versionText: string): Promise<PresetVersion> =>
      getVersion(deps, workspaceId, slug, versionText),
    createFromBody: (
      key: ApiKeyRecord,
      slug: string,
      body: JsonObject,
      format: PresetFormat,
    ): Promise<PresetWithDesignatedVersion> => createFromBody(deps, key, slug, body, format),
  }
}

async function findOrThrow(deps: PresetsServiceDeps, workspaceId: string, slug: string): Promise<PresetRow> {
  const row = await deps.presets.findBySlug(workspaceId, slug)
  if (row === undefined)
    throw new GatewayError(
      'not_found',
      `No preset "${slug}" in this key's workspace; create it with POST /api/v1/presets/${slug}/chat/completions`,
    )
  return row
}

async function withDesignatedVersion(deps: PresetsServiceDeps, row: PresetRow): Promise<PresetWithDesignatedVersion> {
  const version =
    row.designated_version_id === null ? undefined : await deps.presets.findVersionById(row.designated_version_id)
  return { ...toPreset(row), designated_version: version === undefined ? null : toPresetVersion(version) }
}

async function listPresets(
  deps: PresetsServiceDeps,
  workspaceId: string,
  offset: number,
  limit: number,
): Promise<Page<Preset>> {
  const { rows, total } = await deps.presets.list(workspaceId, offset, limit)
  return { data: rows.map(toPreset), total_count: total }
}

async function listVersions(
  deps: PresetsServiceDeps,
  workspaceId: string,
  slug: string,
  offset: number,
  limit: number,
): Promise<Page<PresetVersion>> {
  const preset = await findOrThrow(deps, workspaceId, slug)
  const { rows, total } = await deps.presets.listVersions(preset.id, offset, limit)
  return { data: rows.map(toPresetVersion), total_count: total }
}

async function getVersion(
  deps: PresetsServiceDeps,
  workspaceId: string,
  slug: string,
  versionText: string,
): Promise<PresetVersion> {
  const number = parseVersionNumber(versionText)
  const preset = await findOrThrow(deps, workspaceId, slug)
  const row = number < 1 || number > maxStoredVersion ? undefined : await deps.presets.findVersion(preset.id, number)
  if (row === undefined)
    throw new GatewayError(
      'not_found',
      `Preset "${slug}" has no version ${versionText}; list its versions with GET /api/v1/presets/${slug}/versions`,
    )
  return toPresetVersion(row)
}

async function createFromBody(
  deps: PresetsServiceDeps,
  key: ApiKeyRecord,
  slug: string,
  body: JsonObject,
  format: PresetFormat,
): Promise<PresetWithDesignatedVersion> {
  if (!isPresetSlug(slug)) throw new GatewayError('invalid_request', `Invalid preset slug "${slug}": ${presetSlugRule}`)
  const extracted = extractPresetConfig(body, format)
  if (Object.keys(extracted.config).length === 0 && extracted.systemPrompt === null) {
    throw new GatewayError(
      'invalid_request',
      'The body holds no preset settings: send at least one of model, models, temperature, top_p, top_k, max tokens, penalties, provider, reasoning, tools, tool_choice, a response format, plugins or a system prompt',
    )
  }
  const { preset, version } = await appendVersion(
    deps.presets,
    newVersionInput(key, slug, extracted, deps.clock.now().toISOString()),
  )
  deps.changeBus.publish('preset', preset.id)
  return { ...toPreset(preset), designated_version: toPresetVersion(version) }
}

export type PresetsService = ReturnType<typeof createPresetsService>
