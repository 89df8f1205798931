// A rate-limit rule set through the API: requests and/or tokens per minute for one key or one workspace,
// for every model (`model` null) or for one model id.

export type RateLimitScope = 'key' | 'workspace'

export interface RateLimitRule {
  readonly id: string
  readonly organizationId: string
  readonly workspaceId: string
  readonly scope: RateLimitScope
  /** The key hash of a key rule, the workspace id of a workspace rule. */
  readonly target: string
  /** null: every model. */
  readonly model: string | null
  readonly requestsPerMinute: number | null
  readonly tokensPerMinute: number | null
  readonly createdAt: string
  readonly updatedAt: string
}
