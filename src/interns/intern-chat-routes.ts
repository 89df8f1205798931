// POST /api/v1/interns/{internId}/chat/completions: chat with a running intern over SSE (OpenAI chat
// chunks ending `data: [DONE]`). Only the last message is read: a `user` message starts a run (in a new
// session, or the one named by `session_id`); a `tool` message answers the pending
// `openrouter.provide_input` call of that session.
import type { FastifyReply } from 'fastify'
import { Type, type Static } from 'typebox'
import type { Config } from '../config/config.ts'
import { GatewayError } from '../domain/errors.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import { callerOf } from '../management/interns/caller.ts'
import type { InternAndVault } from '../management/interns/intern-and-vault.ts'
import { InternIdParams, type Intern } from '../management/interns/schema.ts'
import type { ChatSession, ChatSessions } from './chat-sessions.ts'
import {
  resumeAfterApproval,
  runAgentTurn,
  type AgentTurn,
  type ApprovalMode,
  type ModelAnswer,
} from './intern-agent.ts'
import type { AgentServerTools } from './intern-server-tools.ts'
import type { InternRuntime, RunningIntern } from './intern-runtime.ts'
import { createSecretEgress, type SecretEgress } from './secret-egress.ts'
import { toAbortSignal } from '../domain/cancellation.ts'
import { clientCancellation } from '../http/client-cancellation.ts'
import type { TypedApp } from '../http/typed-app.ts'

const ChatBody = Type.Object({
  messages: Type.Array(
    Type.Object({
      role: Type.String(),
      content: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      tool_call_id: Type.Optional(Type.String()),
    }),
    { minItems: 1 },
  ),
  stream: Type.Optional(Type.Boolean()),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  model: Type.Optional(Type.String()),
  approval_mode: Type.Optional(Type.Enum(['self-drive', 'manual'])),
})
type ChatBody = Static<typeof ChatBody>

export interface InternChatDeps {
  readonly runtime: InternRuntime
  readonly area: InternAndVault
  readonly sessions: ChatSessions
  readonly config: Config
  /** Runs one openai-chat inference call for the intern's key. */
  readonly invoke: (key: ApiKeyRecord, body: unknown) => Promise<ModelAnswer>
  /** The key's record as it is now (limit, disabled), or undefined when it was deleted. */
  readonly currentKey: (hash: string) => Promise<ApiKeyRecord | undefined>
  /** The gateway's server tools for one turn (intern key, model, approval mode), when offered. */
  readonly serverTools?: (key: ApiKeyRecord, model: string, mode: ApprovalMode, signal: AbortSignal) => AgentServerTools
}

function sessionFor(deps: InternChatDeps, internId: string, body: ChatBody): ChatSession {
  if (body.session_id === undefined) return deps.sessions.open(internId)
  const session = deps.sessions.find(internId, body.session_id)
  if (session === undefined)
    throw new GatewayError(
      'not_found',
      `No session ${body.session_id} for this intern (sessions are kept in memory and end on restart); omit session_id to start one`,
    )
  return session
}

function acceptLastMessage(deps: InternChatDeps, session: ChatSession, body: ChatBody): string | null {
  const last = body.messages.at(-1)!
  if (last.role === 'user') {
    session.pending = null
    deps.sessions.append(session, { role: 'user', content: last.content ?? '' })
    return null
  }
  if (last.role === 'tool') {
    if (
      body.session_id === undefined ||
      session.pending === null ||
      last.tool_call_id !== session.pending.inputCallId
    ) {
      throw new GatewayError(
        'invalid_request',
        'A tool message must answer the pending openrouter.provide_input call: send session_id and its tool_call_id',
      )
    }
    return last.content ?? ''
  }
  throw new GatewayError(
    'invalid_request',
    `The last message must be a user message (start a run) or a tool message (answer a question); got role "${last.role}"`,
  )
}

export function registerInternChatRoutes(app: TypedApp, deps: InternChatDeps): void {
  app.post(
    '/api/v1/interns/:internId/chat/completions',
    {
      config: { auth: 'workspace' },
      preValidation: deps.area.guard.hook({ scope: 'intern-read' }),
      schema: {
        tags: ['interns'],
        summary: 'Chat with a running intern (SSE)',
        params: InternIdParams,
        body: ChatBody,
      },
    },
    async (request, reply) => {
      const body = request.body
      if (body.stream !== true)
        throw new GatewayError('invalid_request', 'Intern chat is streamed only: send "stream": true')
      const intern = await deps.area.interns.get(callerOf(request), request.params.internId)
      const { handle, model } = requireRunning(deps, intern)
      const session = sessionFor(deps, intern.id, body)
      if (session.busy)
        throw new GatewayError('conflict', `Session ${session.id} is still answering; wait for its stream to end`)
      const key = await runtimeKeyOf(deps, handle)
      const answer = acceptLastMessage(deps, session, body)
      session.busy = true
      const egress = createSecretEgress({
        policy: { allowPrivateNetworks: deps.config.egress.allow_private_networks },
        secrets: (name) => deps.area.vault.openEffectiveSecret(intern.id, name),
      })
      const turn = startTurn(deps, { intern, model, key, session, body, egress }, reply)
      try {
        await (answer === null ? runAgentTurn(turn) : resumeAfterApproval(turn, answer))
      } catch (error) {
        if (error instanceof GatewayError) turn.emitError(error.message, error.status)
        else turn.emitError('The intern failed to answer; try again', 502)
        request.log.warn({ err: error, intern_id: intern.id }, 'intern chat turn failed')
      } finally {
        session.busy = false
        await egress.close()
        reply.raw.end('data: [DONE]\n\n')
      }
    },
  )
}

/** The intern's runtime and model, when it can chat: running, with a model set. */
function requireRunning(deps: InternChatDeps, intern: Intern): { handle: RunningIntern; model: string } {
  const handle = deps.runtime.get(intern.id)
  if (intern.status !== 'running' || handle === undefined)
    throw new GatewayError('conflict', `The intern is ${intern.status}; provision it and wait until it is running`)
  if (intern.model === null)
    throw new GatewayError(
      'conflict',
      'The intern has no model; set one with PATCH /api/v1/interns/{id} {"model": "..."}',
    )
  return { handle, model: intern.model }
}

/**
 * The runtime key as it is now: the running intern holds the record it was provisioned with, and a limit,
 * a disabling or a deletion made since must apply to its next turn as to any other key's next call.
 */
async function runtimeKeyOf(deps: InternChatDeps, handle: RunningIntern): Promise<ApiKeyRecord> {
  const key = await deps.currentKey(handle.key.hash)
  if (key === undefined)
    throw new GatewayError(
      'conflict',
      "The intern's runtime key was deleted; suspend the intern and provision it again to mint a new one",
    )
  if (key.disabled)
    throw new GatewayError(
      'forbidden',
      `The intern's runtime key is disabled; enable it with PATCH /api/v1/keys/${key.hash}`,
    )
  return key
}

interface TurnParts {
  readonly intern: Intern
  readonly model: string
  /** The intern's runtime key, read at the start of the turn. */
  readonly key: ApiKeyRecord
  readonly session: ChatSession
  readonly body: ChatBody
  readonly egress: SecretEgress
}

/** The agent turn, its server tools bound to the client's cancellation; the SSE stream starts here. */
function startTurn(deps: InternChatDeps, parts: TurnParts, reply: FastifyReply): AgentTurn {
  const { intern, model, key, session, body } = parts
  const approvalMode = body.approval_mode ?? 'self-drive'
  return {
    model,
    instructions: intern.instructions,
    session,
    approvalMode,
    invoke: (inferenceBody) => deps.invoke(key, inferenceBody),
    ...(deps.serverTools === undefined
      ? {}
      : {
          serverTools: deps.serverTools(key, model, approvalMode, toAbortSignal(clientCancellation(reply))),
        }),
    egress: parts.egress,
    sessions: deps.sessions,
    ...streamTo(reply, session.id, model),
  }
}

function streamTo(reply: FastifyReply, sessionId: string, model: string): Pick<AgentTurn, 'emit' | 'emitError'> {
  reply.hijack()
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  })
  const id = `chatcmpl-${sessionId}`
  const created = Math.floor(Date.now() / 1000)
  const write = (chunk: Record<string, unknown>) =>
    void reply.raw.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, session_id: sessionId, ...chunk })}\n\n`,
    )
  return {
    emit: (delta, finishReason) => write({ choices: [{ index: 0, delta, finish_reason: finishReason }] }),
    emitError: (message, code) =>
      write({ choices: [{ index: 0, delta: {}, finish_reason: 'error' }], error: { code, message } }),
  }
}
