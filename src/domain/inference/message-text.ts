import type { ContentPart } from './message.ts'

/** The text of a message's content, its text parts joined; images are left out. */
export function messageText(content: string | readonly ContentPart[]): string {
  if (typeof content === 'string') return content
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('')
}
