// SSE framing of the client formats: named events (`event:` + `data:`) or bare `data:` frames.

/** One named event frame: `event: <name>\ndata: <json>\n\n`. */
export function namedSseFrame(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`
}

/** One bare data frame: `data: <json>\n\n`. */
export function dataSseFrame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`
}

/** The terminator of OpenAI-style streams. */
export const doneSseFrame = 'data: [DONE]\n\n'
