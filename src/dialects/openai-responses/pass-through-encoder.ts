// A Responses stream from a Responses upstream, passed through: the upstream's frames go to the client as
// it wrote them, renumbered only when the gateway's own frames moved the sequence (a debug frame first).
// The gateway writes the frames that carry its fields: `response.created` and `response.in_progress` when
// the stream opens (its id, model and echoed request fields; the upstream's are dropped), and the terminal
// event, whose response has the gateway's id, usage with cost and metadata around the upstream's output
// items. The canonical events beside the frames are read only for the usage and the outcome; a failure
// is the gateway's `error` and `response.failed`, whose output is empty here (the items went out as
// frames). A frame written type first is renumbered in place, unread (passing through trusts the upstream's
// JSON); one of another layout is parsed and written again, or dropped when it is not JSON.

import type { NativeFrame, StreamEvent } from '../../domain/inference/stream-event.ts'
import { ResponsesStreamEncoder } from './stream-encoder.ts'

/** The upstream's frames the gateway writes itself. */
const ownFrames = new Set([
  'response.created',
  'response.in_progress',
  'response.completed',
  'response.incomplete',
  'response.failed',
  'error',
])

export class ResponsesPassThroughEncoder extends ResponsesStreamEncoder {
  #upstreamOutput: readonly Record<string, unknown>[] | undefined

  override push(event: StreamEvent): string {
    if (this.closed) return ''
    switch (event.type) {
      case 'native-frame':
        return this.#pass(event)
      case 'usage-report':
      case 'message-end':
      case 'stream-error':
        return super.push(event)
      default:
        return ''
    }
  }

  protected override finalOutput(): readonly Record<string, unknown>[] {
    return this.#upstreamOutput ?? super.finalOutput()
  }

  #pass(frame: NativeFrame): string {
    if (!ownFrames.has(frame.event)) return this.#renumbered(frame)
    if (frame.event === 'response.completed' || frame.event === 'response.incomplete')
      this.#upstreamOutput = outputOf(frame.value)
    return ''
  }

  /** The frame with the stream's next sequence number: as written when it already has it. */
  #renumbered(frame: NativeFrame): string {
    const data =
      frame.sequence === this.sequence
        ? frame.data
        : (renumberedInPlace(frame, this.sequence) ?? reserialized(frame, this.sequence))
    if (data === undefined) return ''
    this.sequence += 1
    return `event: ${frame.event}\ndata: ${data}\n\n`
  }
}

const typeHead = '{"type":"'
const sequenceKey = '","sequence_number":'

/** The data with `sequence` for the number it was written with, when it is one line written type first. */
function renumberedInPlace(frame: NativeFrame, sequence: number): string | undefined {
  const at = typeHead.length + frame.event.length + sequenceKey.length
  const written = frame.sequence === undefined ? writtenSequence(frame, at) : String(frame.sequence)
  if (written === undefined) return undefined
  if (written === String(sequence)) return frame.data
  return `${frame.data.slice(0, at)}${sequence}${frame.data.slice(at + written.length)}`
}

/**
 * The digits of the sequence number at `at`, when the data is one line written type first. Slices are
 * compared whole: TurboFan inlines `startsWith` as a loop over the characters, thousands of instructions
 * for a frame's head.
 */
function writtenSequence({ event, data }: NativeFrame, at: number): string | undefined {
  const keyAt = at - sequenceKey.length
  if (
    data.slice(keyAt, at) !== sequenceKey ||
    data.slice(typeHead.length, keyAt) !== event ||
    data.slice(0, typeHead.length) !== typeHead ||
    data.includes('\n') ||
    data.includes('\r')
  )
    return undefined
  const end = data.indexOf(',', at)
  const written = data.slice(at, end)
  return end > at && /^\d+$/.test(written) ? written : undefined
}

/** The frame's value with `sequence`, serialized again; undefined when its data is not JSON. */
function reserialized(frame: NativeFrame, sequence: number): string | undefined {
  const value = frame.value ?? parsed(frame.data)
  return typeof value === 'object' && value !== null
    ? JSON.stringify({ ...value, sequence_number: sequence })
    : undefined
}

function outputOf(value: unknown): readonly Record<string, unknown>[] | undefined {
  const response = (value as { response?: { output?: unknown } } | undefined)?.response
  return Array.isArray(response?.output) ? (response.output as Record<string, unknown>[]) : undefined
}

function parsed(data: string): unknown {
  try {
    return JSON.parse(data)
  } catch {
    return undefined
  }
}
