// GET /api/v1/activity (OpenRouter's user activity; @openrouter/sdk analytics.getUserActivity()).
import type { Clock } from '../../domain/clock.ts'
import type { GenerationStore } from '../../generations/generation-store.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import { readVisibleActivity } from './read-visible-activity.ts'
import { ActivityQuery, ActivityResponse } from './schema.ts'

export function registerActivityRoutes(app: TypedApp, store: GenerationStore, clock: Clock): void {
  // Reply: the body is JSON text already (read-visible-activity.ts); the response schema documents it.
  app.get<{ Querystring: ActivityQuery; Reply: string }>(
    '/api/v1/activity',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['analytics'],
        summary: 'Daily activity per model and provider endpoint',
        description:
          'The last 30 completed UTC days by default. Management keys read the organization, other keys their own workspace. See docs/console.md.',
        querystring: ActivityQuery,
        response: { 200: ActivityResponse },
      },
    },
    // A string with a JSON content type is sent as it is, not serialized again.
    async (request, reply) => {
      const body = await readVisibleActivity(store, clock, request.principal!.key, request.query)
      return reply.type('application/json; charset=utf-8').send(body)
    },
  )
}
