// Text every store engine holds the same way: no NUL character (PostgreSQL refuses it in text, SQLite
// keeps it) and no unpaired UTF-16 surrogate (no UTF-8 encoding exists; drivers substitute silently).
// Identifiers that contain either are refused at the HTTP edge; free text is stored with each such
// character replaced by U+FFFD, so a prompt or a `user` reads back the same on both engines.

/** A quick test that passes nearly all text: no NUL and no surrogate at all. */
// eslint-disable-next-line no-control-regex -- NUL is what these patterns look for
const suspect = /[\u0000\uD800-\uDFFF]/
/** NUL, a high surrogate not followed by a low one, a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- as above
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const unstorableEverywhere = new RegExp(unstorable.source, 'g')

export function isStorableText(text: string): boolean {
  return !suspect.test(text) || !unstorable.test(text)
}

/** `text` with every NUL and unpaired surrogate replaced by U+FFFD (the same string when there is none). */
export function toStorableText(text: string): string {
  return suspect.test(text) ? text.replace(unstorableEverywhere, '\uFFFD') : text
}
