// openrouter:web_fetch — fetches a URL through the egress policy (http(s) only; private networks only
// when the operator allows them), follows up to 5 redirects (each re-checked), stops reading at the
// configured size, gives up at the configured time, and reduces HTML to readable text.
import { assertEgressAllowed } from '../../http/egress-policy.ts'
import { htmlTitle, htmlToText } from './html-to-text.ts'
import type { ServerTool, ServerToolContext } from './server-tool.ts'
import { ServerToolFailure, requiredStringArg } from './server-tool.ts'

const maxRedirects = 5
/** What the model reads at most, in characters, after the page was reduced to text. */
const maxOutputChars = 100_000

export const webFetchTool: ServerTool = {
  description: 'Fetch a web page or text document by URL and return its readable text content.',
  parameters: {
    type: 'object',
    properties: { url: { type: 'string', description: 'The http(s) URL to fetch' } },
    required: ['url'],
    additionalProperties: false,
  },
  failable: false,
  async run(args, context) {
    const url = requiredStringArg(args, 'url')
    const page = await fetchPage(url, context)
    const isHtml = /html/i.test(page.contentType)
    const content = (isHtml ? htmlToText(page.body) : page.body).slice(0, maxOutputChars)
    const title = isHtml ? htmlTitle(page.body) : undefined
    const item = { url: page.url, httpStatus: page.status, content, ...(title === undefined ? {} : { title }) }
    if (page.status >= 400) throw new ServerToolFailure(`the server answered HTTP ${page.status}`, item)
    const header = `URL: ${page.url}\n${title === undefined ? '' : `Title: ${title}\n`}${page.truncated ? '(truncated at the size limit)\n' : ''}\n`
    return { output: header + content, item }
  },
}

interface FetchedPage {
  readonly url: string
  readonly status: number
  readonly contentType: string
  readonly body: string
  readonly truncated: boolean
}

async function fetchPage(start: string, context: ServerToolContext): Promise<FetchedPage> {
  const limits = context.settings.web_fetch
  const signal = AbortSignal.any([context.signal, AbortSignal.timeout(limits.timeout_ms)])
  let url = start
  for (let hop = 0; hop <= maxRedirects; hop += 1) {
    await assertEgressAllowed(url, context.egress).catch((error: Error) => {
      throw new ServerToolFailure(error.message, { url })
    })
    const response = await fetch(url, {
      redirect: 'manual',
      signal,
      headers: {
        accept: 'text/html, text/plain, application/json;q=0.9, */*;q=0.5',
        'user-agent': 'Switchyard-web_fetch/1',
      },
    }).catch((error: Error) => {
      throw new ServerToolFailure(
        signal.aborted ? `no answer within ${limits.timeout_ms} ms` : `could not fetch: ${error.message}`,
        { url },
      )
    })
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel()
      url = new URL(location, url).toString()
      continue
    }
    const { text, truncated } = await readLimited(response, limits.max_bytes)
    return {
      url,
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      body: text,
      truncated,
    }
  }
  throw new ServerToolFailure(`more than ${maxRedirects} redirects`, { url })
}

async function readLimited(response: Response, maxBytes: number): Promise<{ text: string; truncated: boolean }> {
  if (response.body === null) return { text: '', truncated: false }
  const chunks: Uint8Array[] = []
  let size = 0
  let truncated = false
  const reader = response.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    const room = maxBytes - size
    chunks.push(value.byteLength > room ? value.subarray(0, room) : value)
    size += Math.min(value.byteLength, room)
    if (size >= maxBytes) {
      truncated = true
      await reader.cancel()
      break
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated }
}
