// GET /credits and POST /credits/grants (management key). The static /credits/grants route wins over
// the deprecated POST /credits/:provider (410) registered by the payments area.
import { Type } from 'typebox'
import type { TypedApp } from '../../http/typed-app.ts'
import { CreditGrantBody, Credits } from './schema.ts'
import type { CreditsService } from './service.ts'

export function registerCreditsRoutes(app: TypedApp, service: CreditsService): void {
  const tags = ['credits']
  const response = Type.Object({ data: Credits })
  app.get(
    '/api/v1/credits',
    {
      config: { auth: 'management' },
      schema: { tags, summary: 'Total credits granted and used', response: { 200: response } },
    },
    async () => ({ data: await service.totals() }),
  )

  app.post(
    '/api/v1/credits/grants',
    {
      config: { auth: 'management' },
      schema: { tags, summary: 'Grant credits (self-hosted)', body: CreditGrantBody, response: { 201: response } },
    },
    async (request, reply) => reply.code(201).send({ data: await service.grant(request.body) }),
  )
}
