// Identity records shared across layers.

export type ApiKeyKind = 'management' | 'inference' | 'intern'
export type LimitReset = 'daily' | 'weekly' | 'monthly'

/** What the auth layer needs to know about a key, held in memory. */
export interface ApiKeyRecord {
  readonly hash: string
  readonly kind: ApiKeyKind
  readonly name: string
  readonly label: string
  readonly organizationId: string
  readonly workspaceId: string
  readonly internId: string | null
  readonly creatorUserId: string | null
  readonly disabled: boolean
  readonly expiresAt: string | null
  readonly limitUsd: string | null
  readonly limitReset: LimitReset | null
  readonly includeByokInLimit: boolean
  readonly externalUser: string | null
  /** Response caching for the key's calls: on, off, or left to the request (null). */
  readonly responseCacheEnabled: boolean | null
  /** The TTL of answers the key's calls store when the request names none (null: the workspace's or the default). */
  readonly responseCacheTtlSeconds: number | null
  readonly createdAt: string
  readonly updatedAt: string | null
  readonly lastUsedAt: string | null
}
