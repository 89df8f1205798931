// The deprecated crypto payments route: always 410, with or without a key.
import { Type } from 'typebox'
import { GatewayError } from '../../domain/errors.ts'
import { ErrorEnvelopeSchema } from '../../http/error-schema.ts'
import type { TypedApp } from '../../http/typed-app.ts'

const message =
  'The Coinbase APIs used by this endpoint have been deprecated, so the Coinbase Commerce credits API has been removed. Use the web credits purchase flow instead.'

export function registerDeprecatedPaymentsRoute(app: TypedApp): void {
  app.post(
    '/api/v1/credits/:provider',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['credits'],
        summary: 'Deprecated payment-provider charge route (always 410)',
        deprecated: true,
        params: Type.Object({ provider: Type.String() }),
        response: { 410: ErrorEnvelopeSchema },
      },
    },
    async () => {
      throw new GatewayError('gone', message)
    },
  )
}
