// A preset and a preset version as the API returns them (GET /api/v1/presets, .../versions).
export interface Preset {
  readonly id: string
  readonly slug: string
  readonly name: string
  readonly status: string
  readonly designated_version_id: string | null
  readonly updated_at: string
}

export interface PresetVersion {
  readonly id: string
  readonly version: number
  readonly config: unknown
  readonly system_prompt: string | null
  readonly created_at: string
}
