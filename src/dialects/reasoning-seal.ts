// Carries reasoning through a client format that has no slot for its origin's proof. The item's
// origin, signature, encrypted content, id and redaction flag are sealed into one opaque token
// (`swy1:` + base64url JSON) placed where the format keeps opaque reasoning data; decoding the token
// restores them. The token is not a secret: it only carries what the upstream returned.

import type { ReasoningItem } from '../domain/inference/message.ts'
import { reasoningOrigins } from '../domain/inference/provider-api.ts'
import type { ReasoningOrigin } from '../domain/inference/provider-api.ts'

const prefix = 'swy1:'

type SealedFields = Pick<ReasoningItem, 'signature' | 'encrypted_content' | 'redacted' | 'id'> & {
  readonly origin: ReasoningOrigin
}

export function sealReasoning(item: ReasoningItem): string {
  // JSON.stringify leaves out the fields that are undefined.
  const fields = {
    origin: item.origin,
    signature: item.signature,
    encrypted_content: item.encrypted_content,
    redacted: item.redacted,
    id: item.id,
  }
  return prefix + Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url')
}

/** The sealed fields, or undefined when the token is not one of ours (a native proof). */
export function openSealedReasoning(token: string): SealedFields | undefined {
  if (!token.startsWith(prefix)) return undefined
  try {
    const fields = JSON.parse(Buffer.from(token.slice(prefix.length), 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >
    if (!reasoningOrigins.includes(fields.origin as ReasoningOrigin)) return undefined
    const sealed: Record<string, unknown> = { origin: fields.origin }
    for (const key of ['signature', 'encrypted_content', 'id'] as const)
      if (typeof fields[key] === 'string') sealed[key] = fields[key]
    if (fields.redacted === true) sealed.redacted = true
    return sealed as SealedFields
  } catch {
    return undefined
  }
}
