// The wire form of a change announced to other instances: who sent it (so an instance skips its own
// echo), the topic and the entity id.
import type { ChangeTopic } from './change-bus.ts'

export interface ChangeMessage {
  readonly instanceId: string
  readonly topic: ChangeTopic
  readonly entityId: string
}

export function encodeChangeMessage(message: ChangeMessage): string {
  return JSON.stringify({ i: message.instanceId, t: message.topic, e: message.entityId })
}

/** The message, or null for anything malformed (ignored by the receiver). */
export function decodeChangeMessage(text: string): ChangeMessage | null {
  try {
    const value = JSON.parse(text) as { i?: unknown; t?: unknown; e?: unknown }
    if (typeof value.i !== 'string' || typeof value.t !== 'string' || typeof value.e !== 'string') return null
    return { instanceId: value.i, topic: value.t as ChangeTopic, entityId: value.e }
  } catch {
    return null
  }
}
