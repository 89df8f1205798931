// Which credential a pooled send uses when credentials have their own rate limits (memory limiter,
// manual clock, a recording sendAs in place of the network).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { ProviderCredential, ProviderEntry } from '../../domain/catalog.ts'
import { Cancellation } from '../../domain/cancellation.ts'
import type { Clock } from '../../domain/clock.ts'
import { MemoryRateLimiter } from '../../rate-limits/memory-rate-limiter.ts'
import type { ProviderAdapter, UpstreamRequest } from '../../providers/provider-adapter.ts'
import { AttemptError } from './attempt-error.ts'
import { CredentialLimits } from './credential-limits.ts'
import { CredentialLimitsReached } from './credential-limits-reached.ts'
import { CredentialPools } from './credential-pools.ts'
import { sendWithCredentialPool, type SendAs } from './send-with-credential-pool.ts'
import type { UpstreamAnswer, UpstreamTransport } from './upstream-transport.ts'

class StepClock implements Clock {
  at = Date.parse('2026-11-27T12:00:00.000Z')
  now(): Date {
    return new Date(this.at)
  }
}

const credential = (name: string, fields: Partial<ProviderCredential> = {}): ProviderCredential => ({
  name,
  apiKey: `key-of-${name}`,
  weight: 1,
  requestsPerMinute: null,
  tokensPerMinute: null,
  ...fields,
})

function setUp(credentials: ProviderCredential[], answer: (apiKey: string) => void = () => undefined) {
  const clock = new StepClock()
  const pools = new CredentialPools(clock, {}, new CredentialLimits({ limiter: new MemoryRateLimiter(clock) }))
  const provider = { slug: 'pooled', name: 'Pooled', credentials } as unknown as ProviderEntry
  const sent: string[] = []
  const sendAs: SendAs = async (asProvider) => {
    sent.push(asProvider.apiKey!)
    answer(asProvider.apiKey!)
    return { status: 200, headers: {} } as unknown as UpstreamAnswer
  }
  const transport = { credentials: pools } as unknown as UpstreamTransport
  const request: UpstreamRequest = { method: 'POST', path: '/chat', headers: {}, body: { text: 'x'.repeat(297) } }
  const send = () =>
    sendWithCredentialPool(provider, {} as ProviderAdapter, request, new Cancellation(), transport, sendAs)
  return { clock, send, sent }
}

test('a credential at its request limit is skipped; the others serve by weight', async () => {
  const { send, sent } = setUp([credential('a', { weight: 3, requestsPerMinute: 2 }), credential('b')])
  for (let index = 0; index < 8; index++) await send()
  assert.equal(sent.filter((key) => key === 'key-of-a').length, 2, 'a is used exactly up to its limit')
  assert.equal(sent.filter((key) => key === 'key-of-b').length, 6)
})

test('with every credential at its limit, the send fails retryable with the soonest retry-after, sending nothing', async () => {
  const { clock, send, sent } = setUp([
    credential('a', { requestsPerMinute: 1 }),
    credential('b', { requestsPerMinute: 2 }),
  ])
  for (let index = 0; index < 3; index++) await send()
  clock.at += 10_000
  const error = await send().then(
    () => assert.fail('a fourth request within the minute was sent'),
    (caught: unknown) => caught,
  )
  assert.ok(error instanceof CredentialLimitsReached)
  assert.ok(error instanceof AttemptError && error.isRetryable && error.status === 429)
  assert.equal(sent.length, 3)
  // b (2 per minute) frees one request 30 s after its first; a (1 per minute) 60 s after its one: b's 20 s is the soonest.
  assert.equal(error.retryAfterSeconds, 20)
  assert.match(error.message, /credential a allows 1 requests per minute \(requests_per_minute\)/)
  assert.match(error.message, /credential b allows 2 requests per minute/)
  clock.at += 20_000
  await send()
  assert.equal(sent.at(-1), 'key-of-b', 'the credential whose limit freed up first serves again')
})

test('a token limit counts the estimated input (a third of the body bytes) and skips the credential when full', async () => {
  // The body serializes to 308 bytes: 103 estimated tokens per request.
  const { send, sent } = setUp([credential('a', { tokensPerMinute: 300 }), credential('b', { weight: 1 })])
  for (let index = 0; index < 10; index++) await send()
  assert.equal(sent.filter((key) => key === 'key-of-a').length, 2, '2 x 103 fits in 300, a third does not')
  assert.equal(sent.filter((key) => key === 'key-of-b').length, 8)
})

test('a credential refused by the provider is still cooled down while limits skip another', async () => {
  const { send, sent } = setUp(
    [credential('a', { requestsPerMinute: 1 }), credential('b'), credential('c')],
    (apiKey) => {
      if (apiKey === 'key-of-b') throw new AttemptError('rate_limited', 'upstream 429', 429, 60)
    },
  )
  await send()
  await send()
  await send()
  // a serves once, then is at its limit; b answers 429 and is cooled; c serves the rest.
  assert.deepEqual(sent, ['key-of-a', 'key-of-b', 'key-of-c', 'key-of-c'])
})
