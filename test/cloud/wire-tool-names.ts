// The tool names a request declared to an upstream, read from that upstream's own wire body: proof that
// a client's tools were translated into the provider's form, not only that the scripted reply came back.
import type { FakeUpstream } from '../fake-upstreams/fake-upstream.ts'

type Wire = 'bedrock' | 'openai-chat' | 'openai-responses' | 'gemini' | 'anthropic'

interface Named {
  readonly name?: string
}
interface WireBody {
  readonly tools?: readonly (Named & {
    readonly function?: Named
    readonly functionDeclarations?: readonly Named[]
  })[]
  readonly toolConfig?: { readonly tools?: readonly { readonly toolSpec?: Named }[] }
}

const readers: Readonly<Record<Wire, (body: WireBody) => (string | undefined)[]>> = {
  bedrock: (body) => (body.toolConfig?.tools ?? []).map((tool) => tool.toolSpec?.name),
  'openai-chat': (body) => (body.tools ?? []).map((tool) => tool.function?.name),
  'openai-responses': (body) => (body.tools ?? []).map((tool) => tool.name),
  gemini: (body) => (body.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((f) => f.name)),
  anthropic: (body) => (body.tools ?? []).map((tool) => tool.name),
}

/** The tool names in the last request the fake received, as `wire` spells them. */
export function lastToolNames(upstream: FakeUpstream, wire: Wire): () => string[] {
  return () => {
    const body = (upstream.requests.at(-1)?.body ?? {}) as WireBody
    return readers[wire](body).map((name) => name ?? '<unnamed>')
  }
}
