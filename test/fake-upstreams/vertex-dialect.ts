// The fake's Google Vertex AI wire: under `/{v1|v1beta1}/projects/{project}/locations/{location}`,
// Google's publisher serves Gemini models (`:generateContent`, `:streamGenerateContent?alt=sse`, the
// Gemini API's bodies and streams) and Anthropic's serves Claude models (`:rawPredict`,
// `:streamRawPredict`, Messages bodies with `anthropic_version: vertex-2023-10-16` and no `model`);
// Google's text embedding models answer `:predict` (`{instances: [{content}]}` -> `predictions`).
// A Claude model under Google's publisher (or the reverse), another version or a body `model` is not
// routed (404, as Vertex answers a publisher model it does not know). Errors are google.rpc.Status, or
// Anthropic's shape when the scripted type is one of Anthropic's (`overloaded_error`). The base_url is
// the origin; the official SDKs take `{origin}/v1` (AnthropicVertex) or the origin (@google/genai).
import { anthropicDialect } from './anthropic-dialect.ts'
import { memberOf, type FakeDialect, type FakeRoute, type RoutedBody } from './fake-dialect.ts'
import { geminiDialect } from './gemini-dialect.ts'
import type { CompletionPlan } from './scripted-reply.ts'

const vertexPath =
  /^\/(?:v1|v1beta1)\/projects\/[^/]+\/locations\/[^/]+\/publishers\/(google|anthropic)\/models\/([^/:?]+):(generateContent|streamGenerateContent\?alt=sse|rawPredict|streamRawPredict|predict)$/

const isClaude = (model: string): boolean => model.startsWith('claude')
const familyOf = (plan: CompletionPlan): FakeDialect => (isClaude(plan.model) ? anthropicDialect : geminiDialect)

function routeVertex(path: string, body: RoutedBody): FakeRoute | undefined {
  const match = vertexPath.exec(path)
  if (match === null) return undefined
  const [, publisher, rawModel, method] = match as unknown as [string, string, string, string]
  const model = decodeURIComponent(rawModel)
  if ((publisher === 'anthropic') !== isClaude(model)) return undefined
  if (method === 'predict') return publisher === 'google' ? embeddingsRoute(body, model) : undefined
  if (publisher === 'google') return { kind: 'completion', stream: method !== 'generateContent', model }
  const stream = method === 'streamRawPredict'
  if (memberOf(body, 'anthropic_version') !== 'vertex-2023-10-16' || body.model !== undefined) return undefined
  if (stream !== (body.stream === true)) return undefined
  return { kind: 'completion', stream, model }
}

/** `:predict` for a text embedding model: one instance `{content}` per input. */
function embeddingsRoute(body: RoutedBody, model: string): FakeRoute | undefined {
  const instances = memberOf(body, 'instances')
  if (!Array.isArray(instances) || instances.length === 0) return undefined
  const inputs = instances.map((instance: unknown) => memberOf(instance, 'content'))
  if (!inputs.every((input): input is string => typeof input === 'string')) return undefined
  return { kind: 'embeddings', inputs, model, batch: inputs.length > 1 }
}

export const vertexDialect: FakeDialect = {
  basePath: '',
  route: routeVertex,
  completionJson: (plan) => familyOf(plan).completionJson(plan),
  completionFrames: (plan) => familyOf(plan).completionFrames(plan),
  errorBody: (status, message, errorType) =>
    errorType?.endsWith('_error') === true
      ? anthropicDialect.errorBody(status, message, errorType)
      : geminiDialect.errorBody(status, message, errorType),
  embeddingsJson: (vectors, route, reportedTokens) => ({
    predictions: vectors.map((values, index) => ({
      embeddings: {
        values,
        statistics: {
          token_count:
            reportedTokens === undefined
              ? (route.inputs[index] ?? '').split(/\s+/).filter(Boolean).length
              : index === 0
                ? reportedTokens
                : 0,
          truncated: false,
        },
      },
    })),
    metadata: { billableCharacterCount: route.inputs.join('').length },
  }),
}
