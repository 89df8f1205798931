// Chat sessions of running interns, in memory: a session is the OpenAI-chat message history (tool results
// already masked), the secrets released during it (to mask anything that echoes them) and, in manual
// approval mode, the outbound action waiting for the user's answer. Limits: sessions are lost on
// restart, at most `maxSessions` per intern (oldest evicted) and `maxMessages` per session (oldest dropped).
import { randomUUID } from 'node:crypto'
import type { KnownSecret } from './mask-secrets.ts'

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool'
  readonly content: string | null
  readonly tool_calls?: readonly { id: string; type: 'function'; function: { name: string; arguments: string } }[]
  readonly tool_call_id?: string
}

export interface PendingAction {
  /** The id of the `openrouter.provide_input` call the client answers. */
  readonly inputCallId: string
  /** The model's tool call waiting for approval. */
  readonly toolCallId: string
  readonly arguments: string
  /** Tool calls of the same assistant turn still to run after this one. */
  readonly rest: readonly { id: string; arguments: string }[]
}

export interface ChatSession {
  readonly id: string
  readonly internId: string
  messages: ChatMessage[]
  readonly released: KnownSecret[]
  pending: PendingAction | null
  busy: boolean
}

export class ChatSessions {
  readonly #byIntern = new Map<string, Map<string, ChatSession>>()
  readonly #maxSessions: number
  readonly #maxMessages: number

  constructor(limits: { maxSessions?: number; maxMessages?: number } = {}) {
    this.#maxSessions = limits.maxSessions ?? 100
    this.#maxMessages = limits.maxMessages ?? 200
  }

  find(internId: string, sessionId: string): ChatSession | undefined {
    return this.#byIntern.get(internId)?.get(sessionId)
  }

  open(internId: string): ChatSession {
    const sessions = this.#byIntern.get(internId) ?? new Map<string, ChatSession>()
    this.#byIntern.set(internId, sessions)
    const oldest = sessions.keys().next()
    if (sessions.size >= this.#maxSessions && oldest.done !== true) sessions.delete(oldest.value)
    const session: ChatSession = { id: randomUUID(), internId, messages: [], released: [], pending: null, busy: false }
    sessions.set(session.id, session)
    return session
  }

  append(session: ChatSession, ...messages: ChatMessage[]): void {
    session.messages.push(...messages)
    if (session.messages.length > this.#maxMessages) session.messages = session.messages.slice(-this.#maxMessages)
    while (session.messages[0]?.role === 'tool') session.messages.shift()
  }

  forget(internId: string): void {
    this.#byIntern.delete(internId)
  }
}
