// A gateway in front of one fake OpenAI chat upstream (model `test/model`), listening on a port, with
// an inference key: the setup of the streaming tests.
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from './test-gateway.ts'
import { waitFor } from './wait-for.ts'

export interface ChatGateway {
  readonly gateway: TestGateway
  readonly upstream: FakeUpstream
  /** The gateway's http://127.0.0.1:<port>. */
  readonly base: string
  readonly key: string
  close(): Promise<void>
}

export async function startChatGateway(keyName: string, maxOutputTokens = 1000): Promise<ChatGateway> {
  const upstream = await startFakeUpstream({ api: 'openai-chat' })
  const gateway = await startTestGateway({
    yaml: `providers:\n  - { slug: chatco, api: openai-chat, base_url: "${upstream.url}" }\nmodels:\n  - slug: test/model\n    endpoints:\n      - { provider: chatco, upstream_model_id: m1, max_output_tokens: ${maxOutputTokens}, pricing: { prompt: "0.000001", completion: "0.000002" } }\n`,
  })
  const base = await gateway.listen()
  const key = (
    (
      await gateway.inject({
        method: 'POST',
        url: '/api/v1/keys',
        headers: bearer(gateway.adminKey),
        payload: { name: keyName },
      })
    ).json() as { key: string }
  ).key
  return {
    gateway,
    upstream,
    base,
    key,
    async close() {
      await gateway.close()
      await upstream.close()
    },
  }
}

/**
 * After the client aborted its stream at `abortedAt`: the upstream call stopped within a second, and the
 * generation is recorded as cancelled and billed for some, but fewer than `maxTokens`, output tokens.
 */
export async function assertCancelledAndBilled(
  setup: ChatGateway,
  generationId: string,
  abortedAt: number,
  maxTokens: number,
): Promise<void> {
  const recorded = await setup.upstream.settled(setup.upstream.requests.length - 1)
  assert.ok(recorded.abortedAt !== undefined, 'the upstream saw the client go away')
  assert.ok(
    recorded.abortedAt - abortedAt < 1000,
    `upstream stopped ${recorded.abortedAt - abortedAt} ms after the client left`,
  )
  const stored = await waitFor(async () => {
    const found = await setup.gateway.findGeneration(generationId)
    return found?.record.cancelled === true ? found : undefined
  }, 'the cancelled generation record')
  assert.equal(stored.record.status, 'cancelled')
  assert.ok(
    stored.record.tokensCompletion > 0 && stored.record.tokensCompletion < maxTokens,
    `billed ${stored.record.tokensCompletion} output tokens`,
  )
  assert.ok(stored.record.costNano > 0n)
}
