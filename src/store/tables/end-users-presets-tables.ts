// Table types for end users and presets (migration 0004). Same conventions as database.ts.

export interface EndUserTable {
  organization_id: string
  /** The case-sensitive tracking string, stored exactly as registered. */
  tracking_id: string
  is_active: number
  created_at: string
  updated_at: string
}

export interface PresetTable {
  id: string
  workspace_id: string
  slug: string
  name: string
  description: string | null
  status: string
  status_updated_at: string | null
  designated_version_id: string | null
  creator_user_id: string | null
  created_at: string
  updated_at: string
}

export interface PresetVersionTable {
  id: string
  preset_id: string
  version: number
  /** JSON object text. */
  config: string
  system_prompt: string | null
  creator_id: string
  created_at: string
  updated_at: string
}
