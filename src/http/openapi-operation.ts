// What the OpenAPI document adds to each route's own schema: an `operationId` derived from the method and
// path (`GET /api/v1/keys/:hash` -> `getKeysByHash`), so generated clients get readable method names, and
// the 4XX answer in the route family's error shape when the route declares none of its own.

import type { FastifySchema, RouteOptions } from 'fastify'
import { errorShapeFor, type ErrorShape } from './error-shape.ts'

const errorSchemaIds: Readonly<Record<ErrorShape, string>> = {
  envelope: 'ErrorEnvelope#',
  anthropic: 'AnthropicError#',
}

export function describeOperation(input: { schema: FastifySchema; url: string; route: RouteOptions }): {
  schema: FastifySchema
  url: string
} {
  const { url, route } = input
  const schema: FastifySchema & { operationId?: unknown } = input.schema ?? {}
  const method = typeof route.method === 'string' ? route.method : (route.method[0] ?? 'get')
  const declared = typeof schema.response === 'object' && schema.response !== null ? schema.response : {}
  const response: Record<string, unknown> = { ...declared }
  // A route that declares no answer at all succeeds with a body the document does not describe.
  if (Object.keys(response).length === 0) response['2XX'] = { description: 'Success (body not described here)' }
  if (!Object.keys(response).some((status) => status.startsWith('4')))
    response['4XX'] = { description: 'The request was refused', $ref: errorSchemaIds[errorShapeFor(url)] }
  return {
    url,
    schema: {
      ...schema,
      operationId: typeof schema.operationId === 'string' ? schema.operationId : operationIdFor(method, url),
      response,
    },
  }
}

/** `POST /api/v1/chat/completions` -> `postChatCompletions`; a `:param` segment reads `By<Param>`. */
export function operationIdFor(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/v1(?=\/|$)/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .flatMap((segment) => (segment.startsWith(':') ? ['by', ...wordsOf(segment.slice(1))] : wordsOf(segment)))
  return [method.toLowerCase(), ...words.map((word) => word.charAt(0).toUpperCase() + word.slice(1))].join('')
}

function wordsOf(segment: string): string[] {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase())
}
