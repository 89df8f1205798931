// Rate-limit rules (migration 0013): requests and tokens per minute for a key or a workspace, for every
// model (`model` = '') or one model. Same conventions as database.ts.

export interface RateLimitRuleTable {
  id: string
  organization_id: string
  /** The workspace the rule belongs to (a key rule: the key's workspace). */
  workspace_id: string
  /** 'key' | 'workspace' */
  scope: string
  /** The key's hash for a key rule, the workspace id for a workspace rule. */
  target: string
  /** '' for every model, else the model id the request names. */
  model: string
  requests_per_minute: number | null
  tokens_per_minute: number | null
  created_at: string
  updated_at: string
}
