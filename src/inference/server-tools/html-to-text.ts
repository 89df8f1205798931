// HTML reduced to readable text without a parser dependency: scripts, styles and other non-content
// elements are dropped, block elements become line breaks, entities are decoded, whitespace collapsed.

const dropped = /<(script|style|noscript|template|svg|head|iframe|object)\b[\s\S]*?<\/\1\s*>/gi
const blocks =
  /<\/?(p|div|section|article|main|header|footer|nav|aside|h[1-6]|ul|ol|li|tr|table|blockquote|pre|br|hr|dt|dd|figure|figcaption)\b[^>]*>/gi
const named: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  copy: '©',
  laquo: '«',
  raquo: '»',
}

export function htmlTitle(html: string): string | undefined {
  const match = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)
  const title = match?.[1] === undefined ? '' : decodeEntities(match[1]).replace(/\s+/g, ' ').trim()
  return title === '' ? undefined : title
}

export function htmlToText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(dropped, ' ')
    .replace(blocks, '\n')
    .replace(/<[^>]+>/g, '')
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\r]+/g, ' ').trim())
    .filter((line, index, lines) => line !== '' || (index > 0 && lines[index - 1] !== ''))
    .join('\n')
    .trim()
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X')) return safeCodePoint(Number.parseInt(body.slice(2), 16), entity)
    if (body.startsWith('#')) return safeCodePoint(Number.parseInt(body.slice(1), 10), entity)
    return named[body.toLowerCase()] ?? entity
  })
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback
}
