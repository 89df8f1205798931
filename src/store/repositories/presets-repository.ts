// Presets and their immutable, numbered versions. Appending a version and designating it is one
// transaction, so two concurrent appends can never take the same number (the unique constraint decides).
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../database.ts'
import type { PresetTable, PresetVersionTable } from '../tables/end-users-presets-tables.ts'

export type PresetRow = Selectable<PresetTable>
export type PresetVersionRow = Selectable<PresetVersionTable>

export interface NewPresetVersion {
  readonly workspaceId: string
  readonly slug: string
  readonly creatorUserId: string | null
  readonly creatorId: string
  readonly config: string
  readonly systemPrompt: string | null
  readonly now: string
  readonly newId: () => string
}

export function createPresetsRepository(db: Kysely<Database>) {
  return {
    findBySlug: (workspaceId: string, slug: string) => findPresetBySlug(db, workspaceId, slug),
    findById: (id: string) => findPresetById(db, id),
    listAll: () => listAllPresets(db),
    list: (workspaceId: string, offset: number, limit: number) => listPresets(db, workspaceId, offset, limit),
    findVersionById: (id: string) => findVersionById(db, id),
    findVersion: (presetId: string, version: number) => findVersion(db, presetId, version),
    listVersions: (presetId: string, offset: number, limit: number) => listVersions(db, presetId, offset, limit),
    appendVersion: (input: NewPresetVersion) => appendVersion(db, input),
  }
}

function normalizeVersion(row: PresetVersionRow): PresetVersionRow {
  return { ...row, version: Number(row.version) }
}

export type PresetsRepository = ReturnType<typeof createPresetsRepository>

async function findPresetBySlug(
  db: Kysely<Database>,
  workspaceId: string,
  slug: string,
): Promise<PresetRow | undefined> {
  return db
    .selectFrom('presets')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('slug', '=', slug)
    .executeTakeFirst()
}

async function findPresetById(db: Kysely<Database>, id: string): Promise<PresetRow | undefined> {
  return db.selectFrom('presets').selectAll().where('id', '=', id).executeTakeFirst()
}

async function listAllPresets(db: Kysely<Database>): Promise<PresetRow[]> {
  return db.selectFrom('presets').selectAll().execute()
}

async function listPresets(
  db: Kysely<Database>,
  workspaceId: string,
  offset: number,
  limit: number,
): Promise<{ rows: PresetRow[]; total: number }> {
  const base = db.selectFrom('presets').where('workspace_id', '=', workspaceId)
  const rows = await base.selectAll().orderBy('updated_at', 'desc').orderBy('id').limit(limit).offset(offset).execute()
  const count = await base
    .select((builder) => builder.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.count) }
}

async function findVersionById(db: Kysely<Database>, id: string): Promise<PresetVersionRow | undefined> {
  return db.selectFrom('preset_versions').selectAll().where('id', '=', id).executeTakeFirst()
}

async function findVersion(
  db: Kysely<Database>,
  presetId: string,
  version: number,
): Promise<PresetVersionRow | undefined> {
  return db
    .selectFrom('preset_versions')
    .selectAll()
    .where('preset_id', '=', presetId)
    .where('version', '=', version)
    .executeTakeFirst()
}

async function listVersions(
  db: Kysely<Database>,
  presetId: string,
  offset: number,
  limit: number,
): Promise<{ rows: PresetVersionRow[]; total: number }> {
  const base = db.selectFrom('preset_versions').where('preset_id', '=', presetId)
  const rows = await base.selectAll().orderBy('version').limit(limit).offset(offset).execute()
  const count = await base
    .select((builder) => builder.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return { rows: rows.map(normalizeVersion), total: Number(count.count) }
}

/** Creates the preset when its slug is new, appends the next version and designates it. */
async function appendVersion(
  db: Kysely<Database>,
  input: NewPresetVersion,
): Promise<{ preset: PresetRow; version: PresetVersionRow }> {
  return db.transaction().execute(async (trx) => {
    let preset = await trx
      .selectFrom('presets')
      .selectAll()
      .where('workspace_id', '=', input.workspaceId)
      .where('slug', '=', input.slug)
      .executeTakeFirst()
    if (preset === undefined) {
      preset = {
        id: input.newId(),
        workspace_id: input.workspaceId,
        slug: input.slug,
        name: input.slug,
        description: null,
        status: 'active',
        status_updated_at: null,
        designated_version_id: null,
        creator_user_id: input.creatorUserId,
        created_at: input.now,
        updated_at: input.now,
      }
      await trx.insertInto('presets').values(preset).execute()
    }
    const last = await trx
      .selectFrom('preset_versions')
      .select((builder) => builder.fn.max<number | string | null>('version').as('max'))
      .where('preset_id', '=', preset.id)
      .executeTakeFirstOrThrow()
    const version: PresetVersionRow = {
      id: input.newId(),
      preset_id: preset.id,
      version: Number(last.max ?? 0) + 1,
      config: input.config,
      system_prompt: input.systemPrompt,
      creator_id: input.creatorId,
      created_at: input.now,
      updated_at: input.now,
    }
    await trx.insertInto('preset_versions').values(version).execute()
    await trx
      .updateTable('presets')
      .set({ designated_version_id: version.id, updated_at: input.now })
      .where('id', '=', preset.id)
      .execute()
    return { preset: { ...preset, designated_version_id: version.id, updated_at: input.now }, version }
  })
}
