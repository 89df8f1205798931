// Replays canonical event sequences (`__transcripts__/<scenario>/events.json`) through a dialect's
// stream encoder and compares the SSE text with `client.sse` byte for byte. A scenario may add
// `context.json` (fields merged over the default encode context). `UPDATE_TRANSCRIPTS=1` rewrites the
// expected files (review the diff before committing).

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EncodeContext, StreamEncoder } from '../../src/dialects/dialect.ts'
import type { StreamEvent } from '../../src/domain/inference/stream-event.ts'
import { emptyUsage } from '../../src/domain/inference/usage.ts'

export const transcriptContext: EncodeContext = {
  generationId: 'gen-1700000000-abc123',
  model: 'acme/fast-1',
  provider: 'acme',
  createdAt: 1700000000,
  costUsd: 0.00042,
  isByok: false,
}

export const transcriptCost = 0.00042
export const transcriptCompletedAt = 1700000002

export interface DialectTranscript {
  readonly scenario: string
  readonly events: readonly StreamEvent[]
  readonly context: EncodeContext
  readonly expectedPath: string
}

export function loadDialectTranscripts(directory: string): DialectTranscript[] {
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const folder = join(directory, entry.name)
      const contextPath = join(folder, 'context.json')
      const extra = existsSync(contextPath)
        ? (JSON.parse(readFileSync(contextPath, 'utf8')) as Partial<EncodeContext>)
        : {}
      return {
        scenario: entry.name,
        events: JSON.parse(readFileSync(join(folder, 'events.json'), 'utf8')) as StreamEvent[],
        context: { ...transcriptContext, ...extra },
        expectedPath: join(folder, 'client.sse'),
      }
    })
}

/** start(), every event, then finish() with the reported usage unless a stream-error closed it. */
export function encodeTranscript(transcript: DialectTranscript, encoder: StreamEncoder): string {
  let text = encoder.start()
  for (const event of transcript.events) text += encoder.push(event)
  const report = transcript.events.find((event) => event.type === 'usage-report')
  const usage = report?.type === 'usage-report' ? report.usage : emptyUsage
  text += encoder.finish({
    usage,
    costUsd: transcriptCost,
    completedAt: transcriptCompletedAt,
    ...(transcript.context.metadata === undefined ? {} : { metadata: transcript.context.metadata }),
  })
  return text
}

/** The expected client bytes; written from `actual` first when UPDATE_TRANSCRIPTS=1. */
export function expectedClientText(transcript: DialectTranscript, actual: string): string {
  if (process.env.UPDATE_TRANSCRIPTS === '1') writeFileSync(transcript.expectedPath, actual)
  return readFileSync(transcript.expectedPath, 'utf8')
}
