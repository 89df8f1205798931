// The signed-in key: kept in sessionStorage (gone when the tab closes), never in a URL or a log.
import { ApiClient } from './api/api-client.ts'
import type { CurrentKey } from './api/types.ts'

const storageName = 'switchyard.console.key'

export interface Session {
  readonly client: ApiClient
  readonly key: CurrentKey
  /** Management keys see the organization; any other key sees its own usage, read-only. */
  readonly isManagement: boolean
  /** The SHA-256 of the key (its id in the management API), to scope the self-service view to it. */
  readonly keyHash: string | null
}

export function storedKey(): string | null {
  return sessionStorage.getItem(storageName)
}

export function forgetKey(): void {
  sessionStorage.removeItem(storageName)
}

/** Checks the key against GET /api/v1/key; keeps it only when the gateway accepted it. */
export async function signIn(secret: string): Promise<Session> {
  const client = new ApiClient(secret)
  const { data } = await client.get<{ data: CurrentKey }>('/api/v1/key')
  sessionStorage.setItem(storageName, secret)
  return { client, key: data, isManagement: data.is_management_key, keyHash: await sha256Hex(secret) }
}

async function sha256Hex(text: string): Promise<string | null> {
  // crypto.subtle exists only in secure contexts (https, or http on localhost).
  if (globalThis.crypto?.subtle === undefined) return null
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}
