// One chat turn of an intern: the agent loop. Each step calls the intern's model through the normal
// inference pipeline (openai-chat dialect, the intern's runtime key: limits, guardrails, records and
// observability apply) with an `http_request` tool served by the secret egress. In manual approval mode
// every outbound action is first put to the client as an `openrouter.provide_input` tool call; the turn
// then ends and resumes when the client answers with a `tool` message. Tool results are masked before
// they enter the history, so secret values never reach the model, the stream or stored content.
import { randomUUID } from 'node:crypto'
import type { ChatMessage, ChatSession, ChatSessions } from './chat-sessions.ts'
import type { EgressRequest, SecretEgress } from './secret-egress.ts'
import type { AgentServerTools } from './intern-server-tools.ts'

export type ApprovalMode = 'self-drive' | 'manual'

export interface ModelAnswer {
  readonly status: number
  readonly body: unknown
}

export interface AgentTurn {
  readonly model: string
  readonly instructions: string | null
  readonly session: ChatSession
  readonly approvalMode: ApprovalMode
  readonly invoke: (body: unknown) => Promise<ModelAnswer>
  readonly egress: SecretEgress
  readonly sessions: ChatSessions
  /** Sends one chunk's delta (and finish reason) to the client. */
  readonly emit: (delta: Record<string, unknown>, finishReason: string | null) => void
  /** Sends an error chunk: `code` is the failed model call's HTTP status (402 a spent limit, 403 a guardrail, 429 a rate limit), or 502. */
  readonly emitError: (message: string, code: number) => void
  readonly maxSteps?: number
  /** The gateway's server tools offered beside http_request (see intern-server-tools.ts). */
  readonly serverTools?: AgentServerTools
}

interface ToolCall {
  readonly id: string
  readonly name: string
  readonly arguments: string
}

export const httpRequestTool = {
  type: 'function',
  function: {
    name: 'http_request',
    description:
      'Call an external HTTP API. Refer to secrets as {{secret:NAME}} in header values or the body; a secret is only sent to the hosts it is bound to, otherwise the request is refused. Secret values in answers are shown as [secret:NAME].',
    parameters: {
      type: 'object',
      properties: {
        method: { type: 'string', enum: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] },
        url: { type: 'string', description: 'Absolute http or https URL' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        body: { type: 'string' },
      },
      required: ['method', 'url'],
    },
  },
} as const

const approvals = /^\s*(yes|y|ok|okay|approve|approved|allow|allowed|go ahead)\b/i

/** Runs model steps until the model answers without tool calls, asks for approval, or hits the step limit. */
export async function runAgentTurn(turn: AgentTurn): Promise<void> {
  for (let step = 0; step < (turn.maxSteps ?? 8); step += 1) {
    const system: ChatMessage[] = turn.instructions === null ? [] : [{ role: 'system', content: turn.instructions }]
    const answer = await turn.invoke({
      model: turn.model,
      messages: [...system, ...turn.session.messages],
      tools: [httpRequestTool, ...(turn.serverTools?.definitions ?? [])],
      stream: false,
    })
    if (answer.status !== 200) return turn.emitError(errorMessageOf(answer), answer.status)
    const message = (
      answer.body as {
        choices?: {
          message?: {
            content?: string | null
            tool_calls?: { id: string; function: { name: string; arguments: string } }[]
          }
        }[]
      }
    ).choices?.[0]?.message
    const calls: ToolCall[] = (message?.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    }))
    const content = message?.content ?? null
    turn.sessions.append(turn.session, {
      role: 'assistant',
      content,
      ...(calls.length === 0
        ? {}
        : {
            tool_calls: calls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: { name: call.name, arguments: call.arguments },
            })),
          }),
    })
    if (content !== null && content !== '') turn.emit({ content }, null)
    if (calls.length === 0) return turn.emit({}, 'stop')
    if (!(await runToolCalls(turn, calls))) return
  }
  turn.emit({ content: `\n[stopped after ${turn.maxSteps ?? 8} steps]` }, 'length')
}

/** Continues a turn after the client answered an `openrouter.provide_input` call with `answer`. */
export async function resumeAfterApproval(turn: AgentTurn, answer: string): Promise<void> {
  const pending = turn.session.pending
  if (pending === null) return
  turn.session.pending = null
  if (approvals.test(answer))
    await execute(turn, { id: pending.toolCallId, name: 'http_request', arguments: pending.arguments })
  else
    turn.sessions.append(turn.session, {
      role: 'tool',
      tool_call_id: pending.toolCallId,
      content: JSON.stringify({ error: 'The user declined this request; do not retry it unless asked.' }),
    })
  const rest = pending.rest.map((call) => ({ ...call, name: 'http_request' }))
  if (!(await runToolCalls(turn, rest))) return
  await runAgentTurn(turn)
}

async function runToolCalls(turn: AgentTurn, calls: readonly ToolCall[]): Promise<boolean> {
  for (const [index, call] of calls.entries()) {
    if (call.name === 'http_request' && turn.approvalMode === 'manual') {
      askForApproval(turn, call, calls.slice(index + 1))
      return false
    }
    await execute(turn, call)
  }
  return true
}

function askForApproval(turn: AgentTurn, call: ToolCall, rest: readonly ToolCall[]): void {
  const inputCallId = `call_${randomUUID().replace(/-/g, '')}`
  turn.session.pending = {
    inputCallId,
    toolCallId: call.id,
    arguments: call.arguments,
    rest: rest.map(({ id, arguments: args }) => ({ id, arguments: args })),
  }
  const action = parseRequest(call.arguments)
  const question =
    'error' in action
      ? `Allow this http_request? ${call.arguments}`
      : `Allow ${action.method} ${action.url}? Answer "yes" to allow, anything else to decline.`
  const providedArguments = JSON.stringify({
    question,
    action: 'error' in action ? null : { method: action.method, url: action.url },
  })
  turn.emit(
    {
      tool_calls: [
        {
          index: 0,
          id: inputCallId,
          type: 'function',
          function: { name: 'openrouter.provide_input', arguments: providedArguments },
        },
      ],
    },
    null,
  )
  turn.emit({}, 'tool_calls')
}

async function execute(turn: AgentTurn, call: ToolCall): Promise<void> {
  const serverOutput = call.name === 'http_request' ? undefined : await turn.serverTools?.run(call.name, call.arguments)
  const result =
    call.name === 'http_request'
      ? await callHttp(turn.egress, call.arguments)
      : (serverOutput ?? { error: `Unknown tool ${call.name}` })
  turn.sessions.append(turn.session, {
    role: 'tool',
    tool_call_id: call.id,
    content: typeof result === 'string' ? result : JSON.stringify(result),
  })
}

async function callHttp(egress: SecretEgress, rawArguments: string): Promise<Record<string, unknown>> {
  const request = parseRequest(rawArguments)
  if ('error' in request) return request
  try {
    const response = await egress.send(request)
    return {
      status: response.status,
      url: response.url,
      content_type: response.headers['content-type'] ?? null,
      body: response.body,
      truncated: response.truncated,
    }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

function parseRequest(rawArguments: string): EgressRequest | { error: string } {
  let parsed: unknown
  try {
    parsed = JSON.parse(rawArguments)
  } catch {
    return { error: 'http_request arguments must be a JSON object with method and url' }
  }
  const value = parsed as { method?: unknown; url?: unknown; headers?: unknown; body?: unknown }
  if (typeof value.method !== 'string' || typeof value.url !== 'string')
    return { error: 'http_request needs string method and url' }
  const headers =
    typeof value.headers === 'object' && value.headers !== null
      ? Object.fromEntries(Object.entries(value.headers).map(([name, header]) => [name, String(header)]))
      : {}
  return {
    method: value.method,
    url: value.url,
    headers,
    ...(typeof value.body === 'string' ? { body: value.body } : {}),
  }
}

function errorMessageOf(answer: ModelAnswer): string {
  const message = (answer.body as { error?: { message?: unknown } } | null)?.error?.message
  return `The model call failed (${answer.status})${typeof message === 'string' ? `: ${message}` : ''}`
}
