// The Fastify instance that route modules register on: its type provider gives each handler the types of
// its route's TypeBox schemas (request.body, query, params), so a handler never casts them.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'

export type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>

/** The same instance, seen through the TypeBox type provider. */
export function withSchemaTypes(app: FastifyInstance): TypedApp {
  return app.withTypeProvider<TypeBoxTypeProvider>()
}
