// The upstream's own words from an error body, fit for one log line: its `error.message` (OpenAI,
// Anthropic and Gemini all nest it there) or `message`, else the text; whitespace collapsed, cut to 300
// characters, and the credential the gateway sent blanked should the upstream echo it.

const maxLength = 300

export function upstreamMessage(body: string, credential: string | null): string {
  const message = messageField(body) ?? body
  let text = message.replace(/\s+/g, ' ').trim()
  if (credential !== null && credential.length > 0) text = text.split(credential).join('[redacted]')
  if (text.length > maxLength) text = `${text.slice(0, maxLength)}…`
  return text === '' ? '(empty body)' : text
}

function messageField(body: string): string | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return undefined
  }
  const error = field(parsed, 'error')
  const nested = field(error, 'message')
  if (typeof nested === 'string') return nested
  if (typeof error === 'string') return error
  const top = field(parsed, 'message')
  return typeof top === 'string' ? top : undefined
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined
}
