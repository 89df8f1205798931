// GET /generation and GET /generation/content: a generation's metadata and its stored content; GET
// /generations: the cursor-paginated listing (list-visible-generations.ts). A generation is read by
// callers in its workspace (management keys: any workspace of the organization). An
// intern's own key reads only generations made by keys of its intern; others answer as an unknown id.
import { Type } from 'typebox'
import { GatewayError } from '../../domain/errors.ts'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { GenerationStore, StoredGeneration } from '../../generations/generation-store.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import { isVisibleToKey, type FindKeyByHash } from '../../identity/is-visible-to-key.ts'
import { GenerationAnswer } from './generation-schema.ts'
import { GenerationList, ListGenerationsQuery } from './list-schema.ts'
import { listVisibleGenerations } from './list-visible-generations.ts'
import { presentGeneration, presentGenerationContent } from './present-generation.ts'

const GenerationQuery = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 128,
    pattern: '^gen-[0-9A-Za-z-]+$',
    description: 'The generation id (gen-...)',
  }),
})

async function findVisible(
  store: GenerationStore,
  findKey: FindKeyByHash,
  id: string,
  key: ApiKeyRecord,
): Promise<StoredGeneration> {
  const found = await store.find(id)
  const visible =
    found !== undefined &&
    found.record.organizationId === key.organizationId &&
    (key.kind === 'management' || found.record.workspaceId === key.workspaceId) &&
    (await isVisibleToKey(key, found.record.keyHash, findKey))
  if (!visible) throw new GatewayError('not_found', `Generation ${id} not found in this workspace`)
  return found
}

export function registerGenerationRoutes(app: TypedApp, store: GenerationStore, findKey: FindKeyByHash): void {
  const tags = ['generations']
  app.get(
    '/api/v1/generation',
    {
      config: { auth: 'any' },
      schema: {
        tags,
        summary: "A generation's metadata",
        querystring: GenerationQuery,
        response: { 200: GenerationAnswer },
      },
    },
    async (request) => {
      const { record } = await findVisible(store, findKey, request.query.id, request.principal!.key)
      return { data: presentGeneration(record) }
    },
  )

  app.get(
    '/api/v1/generations',
    {
      config: { auth: 'any' },
      schema: {
        tags,
        summary: 'List generation records, newest first',
        description:
          'Cursor-paginated. Management keys read the organization, other keys their own workspace, an intern key its intern. See docs/console.md.',
        querystring: ListGenerationsQuery,
        response: { 200: GenerationList },
      },
    },
    (request) => listVisibleGenerations(store, request.principal!.key, request.query),
  )

  app.get(
    '/api/v1/generation/content',
    {
      config: { auth: 'any' },
      schema: { tags, summary: "A generation's stored input and output", querystring: GenerationQuery },
    },
    async (request) => {
      const { record, content } = await findVisible(store, findKey, request.query.id, request.principal!.key)
      if (content === null)
        throw new GatewayError(
          'not_found',
          `No content is stored for generation ${record.id} (IO logging is off for its workspace, or it was not sampled)`,
        )
      return { data: presentGenerationContent(content, record) }
    },
  )
}
