// Azure OpenAI as a fake upstream: OpenAI's bodies and streams (the chat or the responses dialect) at
// Azure's URL shapes. The deployment form needs `?api-version=`; the v1 form (`/openai/v1/...`) does not.
// The base_url is the resource endpoint, the bare origin (what AzureOpenAI's `endpoint` takes). A chat
// stream opens with Azure's prompt-filter chunk (empty id and choices), as the service sends it.
import { sseFrame, type FakeDialect, type FakeRoute, type RoutedBody } from './fake-dialect.ts'
import { openaiChatDialect } from './openai-chat-dialect.ts'
import { openaiResponsesDialect } from './openai-responses-dialect.ts'

const safe = { filtered: false, severity: 'safe' }
/** Azure's first chat chunk: the prompt's content-filter results, with an empty id, model and choices. */
const promptFilterFrame = sseFrame({
  choices: [],
  created: 0,
  id: '',
  model: '',
  object: '',
  prompt_filter_results: [
    { prompt_index: 0, content_filter_results: { hate: safe, self_harm: safe, sexual: safe, violence: safe } },
  ],
})

export function azureOpenAiDialect(wire: 'chat' | 'responses'): FakeDialect {
  const inner = wire === 'chat' ? openaiChatDialect : openaiResponsesDialect
  return {
    basePath: '',
    route: (path, body) => routeAzure(wire, path, body),
    completionJson: (plan) => inner.completionJson(plan),
    completionFrames: (plan) =>
      wire === 'chat' ? [promptFilterFrame, ...inner.completionFrames(plan)] : inner.completionFrames(plan),
    errorBody: (status, message, errorType) => ({ error: { code: errorType ?? String(status), message } }),
    embeddingsJson: (vectors, route) => openaiChatDialect.embeddingsJson(vectors, route),
  }
}

function routeAzure(wire: 'chat' | 'responses', path: string, body: RoutedBody): FakeRoute | undefined {
  const url = new URL(path, 'http://fake')
  const version = url.searchParams.get('api-version')
  const v1 = /^\/openai\/v1\/(chat\/completions|responses|embeddings)$/.exec(url.pathname)
  const deployment = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/.exec(url.pathname)
  let operation: string
  let model = String(body.model ?? '')
  if (v1 !== null) operation = v1[1]!
  else if (version === null || version === '') return undefined
  else if (url.pathname === '/openai/responses') operation = 'responses'
  else if (deployment !== null) {
    operation = deployment[2]!
    model = decodeURIComponent(deployment[1]!)
  } else return undefined
  if (operation === 'embeddings') {
    const inner = openaiChatDialect.route('/v1/embeddings', body)
    return inner?.kind === 'embeddings' ? { ...inner, model } : undefined
  }
  if ((operation === 'responses') !== (wire === 'responses')) return undefined
  return { kind: 'completion', stream: body.stream === true, model }
}
