// Text every store engine holds the same way: no NUL character (PostgreSQL refuses it in text, SQLite
// keeps it) and no unpaired UTF-16 surrogate (no UTF-8 encoding exists; drivers substitute silently).
// Identifiers that contain either are refused at the HTTP edge; free text is stored with each such
// character replaced by U+FFFD, so a prompt or a `user` reads back the same on both engines.

/** NUL, a high surrogate not followed by a low one, a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- NUL is what this pattern looks for
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * Both checks are V8 builtins: `isWellFormed` answers a one-byte string (nearly all text) without
 * reading it, and `includes` of one character is a vectorised search. A regular expression looking for
 * either ran per character, about 10 K instructions per generation record's parameters.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed()
}

/** `text` with every NUL and unpaired surrogate replaced by U+FFFD (the same string when there is none). */
export function toStorableText(text: string): string {
  return isStorableText(text) ? text : text.replace(unstorable, '\uFFFD')
}
