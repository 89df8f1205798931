// One nested Chat Completions call through the full pipeline (routing, reservation, settlement, its own
// generation record), billed to the calling key. Used by subagent, advisor, fusion, image_generation.
import { usdToNano } from '../../domain/money.ts'
import type { ServerToolContext } from './server-tool.ts'
import { ServerToolFailure } from './server-tool.ts'

export interface ModelAnswer {
  readonly model: string
  readonly text: string
  readonly costNano: bigint
  readonly generationId: string
  /** Image URLs (data: or https:) from `message.images`, for image-capable models. */
  readonly images: readonly string[]
}

type Json = Record<string, unknown>

export async function askModel(
  context: ServerToolContext,
  model: string,
  messages: readonly Json[],
  extra: Json = {},
): Promise<ModelAnswer> {
  const answer = await context.invoke({
    dialect: 'openai-chat',
    body: { ...extra, model, messages },
    signal: context.signal,
  })
  const body = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as Json
  if (answer.status !== 200) {
    const message = ((body.error as Json | undefined)?.message as string | undefined) ?? `HTTP ${answer.status}`
    throw new ServerToolFailure(`the model ${model} could not answer: ${message}`, { model })
  }
  const message = ((body.choices as Json[] | undefined)?.[0]?.message ?? {}) as Json
  const cost = (body.usage as Json | undefined)?.cost
  const images = Array.isArray(message.images)
    ? message.images
        .map((image: Json) => String((image.image_url as Json | undefined)?.url ?? ''))
        .filter((url) => url !== '')
    : []
  return {
    model,
    text: typeof message.content === 'string' ? message.content : '',
    costNano: typeof cost === 'number' ? usdToNano(cost) : 0n,
    generationId: answer.generationId,
    images,
  }
}

/** The model a nested-call tool uses: the tool's request setting, then config, then the request's model. */
export function toolModel(context: ServerToolContext, configured: string | null): string {
  const requested = context.requestSettings.model
  return typeof requested === 'string' && requested !== '' ? requested : (configured ?? context.model)
}
