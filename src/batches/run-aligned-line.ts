// A batch line of an inference endpoint, with OpenRouter's alignment plugin: the line runs (with its
// rules stated to the model unless `instruct: false`), every assistant message of the answer is checked
// against every rule by the evaluator, and the answer carries `alignment: {calls: [...]}` (empty when
// the line names no rule). In enforce mode a blocked answer is withheld and the model called again
// (`<generation id>-retry-<n>`), `max_retries` times, after which the line fails with
// content_policy_violation. In audit mode every answer is delivered with its outcome.
import type { DialectName } from '../dialects/dialect.ts'
import { isGatewayError } from '../domain/errors.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { CancelSignal } from '../domain/cancellation.ts'
import type { InvokePort } from '../inference/call/invoke-port.ts'
import { alignmentSettingsOf, type AlignmentSettings } from '../inference/alignment/alignment-settings.ts'
import { assistantMessages } from '../inference/alignment/assistant-messages.ts'
import { evaluateMessage, type AlignmentCallRecord } from '../inference/alignment/evaluate-alignment.ts'
import { stateRules } from '../inference/alignment/state-rules.ts'
import type { LineAnswer } from './line-pipelines.ts'

export interface AlignedLine {
  readonly dialect: DialectName
  readonly key: ApiKeyRecord
  readonly body: Readonly<Record<string, unknown>>
  readonly generationId: string
  readonly signal: CancelSignal
}

export interface AlignmentRunDeps {
  /** Runs the line's body under a generation id, as the endpoint's route would. */
  readonly run: (body: unknown, generationId: string) => Promise<LineAnswer>
  /** The call core, with the line's accounting: the evaluator's calls are billed to the batch. */
  readonly invoke: InvokePort
  /** `alignment.evaluator_model`; null: the line's own model checks its answers. */
  readonly evaluatorModel: string | null
}

/** The line's answer (a 200 carries `alignment`), or why it was blocked on every attempt. */
export type AlignedAnswer = LineAnswer | { readonly blocked: string }

export async function runAlignedLine(line: AlignedLine, deps: AlignmentRunDeps): Promise<AlignedAnswer> {
  let settings: AlignmentSettings | null
  try {
    settings = alignmentSettingsOf(line.body)
  } catch (error) {
    // A line stored before its plugin settings were checked at submission.
    if (!isGatewayError(error)) throw error
    return { status: error.status, body: { error: { code: error.status, message: error.message } } }
  }
  if (settings === null || settings.rules.length === 0) {
    const answer = await deps.run(line.body, line.generationId)
    return answer.status === 200 ? withAlignment(answer, []) : answer
  }
  const body = settings.instruct ? stateRules(line.dialect, line.body, settings.rules) : line.body
  const attempts = settings.mode === 'enforce' ? settings.maxRetries + 1 : 1
  const calls: AlignmentCallRecord[] = []
  for (let attempt = 0; attempt < attempts; attempt++) {
    const generationId = attempt === 0 ? line.generationId : `${line.generationId}-retry-${attempt}`
    const answer = await deps.run(body, generationId)
    if (answer.status !== 200) return answer
    const records = await evaluateAnswer(line, settings, answer.body, calls.length, generationId, deps)
    calls.push(...records)
    if (settings.mode === 'audit' || !records.some((record) => record.outcome === 'blocked'))
      return withAlignment(answer, calls)
  }
  return blocked(calls, attempts)
}

/** One record per assistant message, numbered after the `before` records of earlier attempts. */
async function evaluateAnswer(
  line: AlignedLine,
  settings: AlignmentSettings,
  answerBody: unknown,
  before: number,
  generationId: string,
  deps: AlignmentRunDeps,
): Promise<AlignmentCallRecord[]> {
  const evaluator = {
    invoke: deps.invoke,
    key: line.key,
    signal: line.signal,
    model: deps.evaluatorModel ?? String(line.body.model),
    generationId,
    passThrough: passThroughOf(line.body),
  }
  const records: AlignmentCallRecord[] = []
  for (const [index, message] of assistantMessages(line.dialect, answerBody).entries())
    records.push(await evaluateMessage(message, before + index + 1, settings, evaluator))
  return records
}

function passThroughOf(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const passed: Record<string, unknown> = {}
  for (const field of ['user', 'session_id', 'trace'] as const) if (body[field] != null) passed[field] = body[field]
  return passed
}

function withAlignment(answer: LineAnswer, calls: readonly AlignmentCallRecord[]): LineAnswer {
  if (typeof answer.body !== 'object' || answer.body === null) return answer
  return { status: answer.status, body: { ...answer.body, alignment: { calls } } }
}

function blocked(calls: readonly AlignmentCallRecord[], attempts: number): AlignedAnswer {
  const tried = `${attempts} model call${attempts === 1 ? '' : 's'}`
  return {
    blocked: `Every reply broke an alignment rule (${tried}, enforce mode); alignment: ${JSON.stringify({ calls })}`,
  }
}
