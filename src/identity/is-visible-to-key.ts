// Which keys' records a key may read. An intern's own key is confined to its intern (spec,
// Authentication 6): it sees what keys of that intern made (the intern's runtime key and the keys minted
// for it), never what other keys of its workspace made. Workspace and organization scoping stay with the
// caller; this only narrows them for intern keys.
import type { ApiKeyRecord } from '../domain/identity.ts'

/** Looks a key up by its hash (the key cache); undefined for an unknown or deleted key. */
export type FindKeyByHash = (hash: string) => Promise<ApiKeyRecord | undefined>

/** True for an intern's own key (kind `intern`, or any key tied to an intern). */
export function isInternConfined(key: ApiKeyRecord): boolean {
  return key.kind === 'intern' || key.internId !== null
}

/** Whether `viewer` may read a record of its workspace that the key hashed `ownerHash` made. */
export async function isVisibleToKey(
  viewer: ApiKeyRecord,
  ownerHash: string,
  findKey: FindKeyByHash,
): Promise<boolean> {
  if (!isInternConfined(viewer) || ownerHash === viewer.hash) return true
  if (viewer.internId === null) return false
  const owner = await findKey(ownerHash)
  return owner !== undefined && owner.internId === viewer.internId
}
