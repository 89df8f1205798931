// The designated version of every active preset, in memory, for the inference path (no store read per
// request). Loaded at start (and periodically across instances); a 'preset' change on the bus reloads
// that preset from the store. Reloads and refreshes run in turn (in-turn.ts).
import type { ChangeBus } from '../events/change-bus.ts'
import { InTurn } from '../events/in-turn.ts'
import type { PresetsRepository } from '../store/repositories/presets-repository.ts'
import type { PresetConfig } from './preset-config.ts'

export interface CachedPreset {
  readonly presetId: string
  readonly workspaceId: string
  readonly slug: string
  readonly version: number
  readonly config: PresetConfig
  readonly systemPrompt: string | null
}

function cacheKey(workspaceId: string, slug: string): string {
  return `${workspaceId}\u0000${slug}`
}

export class PresetCache {
  readonly #presets: PresetsRepository
  readonly #onError: (error: unknown) => void
  readonly #byKey = new Map<string, CachedPreset>()
  readonly #keyById = new Map<string, string>()
  readonly #turns = new InTurn()
  readonly #unsubscribe: () => void

  constructor(presets: PresetsRepository, changeBus: ChangeBus, onError: (error: unknown) => void) {
    this.#presets = presets
    this.#onError = onError
    this.#unsubscribe = changeBus.subscribe('preset', (presetId) =>
      this.#turns.run(() => this.#refresh(presetId)).catch(this.#onError),
    )
  }

  /** Reads every preset; one that no longer exists is dropped (its deletion may have been announced elsewhere). */
  load(): Promise<void> {
    return this.#turns.run(async () => {
      const ids = new Set((await this.#presets.listAll()).map((preset) => preset.id))
      for (const presetId of [...this.#keyById.keys()]) if (!ids.has(presetId)) this.#forget(presetId)
      for (const presetId of ids) await this.#refresh(presetId)
    })
  }

  /** The designated version of an active preset in a workspace, or undefined. */
  get(workspaceId: string, slug: string): CachedPreset | undefined {
    return this.#byKey.get(cacheKey(workspaceId, slug))
  }

  async #refresh(presetId: string): Promise<void> {
    const preset = await this.#presets.findById(presetId)
    const version =
      preset?.designated_version_id == null
        ? undefined
        : await this.#presets.findVersionById(preset.designated_version_id)
    this.#forget(presetId)
    if (preset === undefined || version === undefined || preset.status !== 'active') return
    const key = cacheKey(preset.workspace_id, preset.slug)
    this.#byKey.set(key, {
      presetId,
      workspaceId: preset.workspace_id,
      slug: preset.slug,
      version: Number(version.version),
      config: JSON.parse(version.config) as PresetConfig,
      systemPrompt: version.system_prompt,
    })
    this.#keyById.set(presetId, key)
  }

  #forget(presetId: string): void {
    const previous = this.#keyById.get(presetId)
    if (previous !== undefined) this.#byKey.delete(previous)
    this.#keyById.delete(presetId)
  }

  /** Resolves once every refresh started by the change bus has finished. */
  settled(): Promise<void> {
    return this.#turns.settled()
  }

  close(): void {
    this.#unsubscribe()
  }
}
