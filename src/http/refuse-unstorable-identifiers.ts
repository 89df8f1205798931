// Identifiers are refused at the edge when no store can hold them the same way: a path parameter, a
// query parameter, or a top-level body field named like an identifier (`id`, `hash`, `slug`, `*_id`,
// `*_ids`, `*_hash`, `*_hashes`, `*_slug`) that contains a NUL character or an unpaired UTF-16
// surrogate is answered 400 naming the field, on every route, before authentication reads the store.
// Free text (prompts, `user`, names) is not refused: the store replaces such characters with U+FFFD.
import type { FastifyRequest } from 'fastify'
import { GatewayError } from '../domain/errors.ts'
import { isStorableText } from '../domain/storable-text.ts'

const identifierField = /^(id|hash|slug)$|_(id|ids|hash|hashes|slug)$/

/** onRequest: path and query parameters. */
export async function refuseUnstorableParameters(request: FastifyRequest): Promise<void> {
  refuseIn('path parameter', request.params, () => true)
  refuseIn('query parameter', request.query, () => true)
}

/** preValidation: the body's identifier fields (top level; a large prompt is not walked). */
export async function refuseUnstorableBodyIdentifiers(request: FastifyRequest): Promise<void> {
  refuseIn('body field', request.body, (name) => identifierField.test(name))
}

function refuseIn(where: string, values: unknown, isChecked: (name: string) => boolean): void {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return
  for (const [name, value] of Object.entries(values)) {
    if (!isChecked(name) || isStorableValue(value)) continue
    throw new GatewayError(
      'invalid_request',
      `The ${where} "${name}" contains a NUL character (U+0000) or an unpaired UTF-16 surrogate, which path and query parameters and identifiers may not hold: remove it and retry`,
      { metadata: { field: name } },
    )
  }
}

function isStorableValue(value: unknown): boolean {
  if (typeof value === 'string') return isStorableText(value)
  if (Array.isArray(value)) return value.every((item) => typeof item !== 'string' || isStorableText(item))
  return true
}
