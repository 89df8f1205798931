import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ChatRequestSchema } from './openai-chat/request-schema.ts'
import { ResponsesRequestSchema } from './openai-responses/request-schema.ts'
import { createSchemaCheck, maxInvalidItems } from './schema-check.ts'
import { narrowToInvalidItems } from './invalid-list-items.ts'

const checkChat = createSchemaCheck(ChatRequestSchema)
const checkResponses = createSchemaCheck(ResponsesRequestSchema)

/** `length` messages, those `isBad` picks with a role no branch accepts, counting every read of any of them. */
function countedMessages(length: number, isBad: (index: number) => boolean) {
  let reads = 0
  const count = { get: Reflect.get, has: Reflect.has, ownKeys: Reflect.ownKeys }
  const traps: ProxyHandler<object> = {
    get: (...args) => (reads++, count.get(...args)),
    has: (...args) => (reads++, count.has(...args)),
    ownKeys: (...args) => (reads++, count.ownKeys(...args)),
    getOwnPropertyDescriptor: (...args) => (reads++, Reflect.getOwnPropertyDescriptor(...args)),
  }
  const messages = Array.from(
    { length },
    (_unused, index) => new Proxy({ role: isBad(index) ? 'robot' : 'user', content: 'x' }, traps),
  )
  return { messages, reads: () => reads }
}

function refusal(check: (body: unknown) => void, body: unknown): string {
  try {
    check(body)
  } catch (error) {
    return (error as Error).message
  }
  assert.fail('the body was accepted')
}

const roles = 'must be one of "system", "developer", "user", "assistant", "tool"'

test('one bad message among 10,000 is found by reading the list at most twice as often as accepting it', () => {
  const valid = countedMessages(10_000, () => false)
  checkChat({ model: 'm', messages: valid.messages })
  // The walk that builds the message reads each kept item a few dozen times; no more than maxInvalidItems are kept.
  const bound = 2 * valid.reads() + 100 * maxInvalidItems
  for (const bad of [0, 5_000, 9_999]) {
    const refused = countedMessages(10_000, (index) => index === bad)
    const message = refusal(checkChat, { model: 'm', messages: refused.messages, temperature: 'hot' })
    assert.equal(message, `messages[${bad}].role: ${roles}; temperature: must be number`)
    assert.ok(refused.reads() <= bound, `${refused.reads()} reads to refuse, ${valid.reads()} to accept`)
  }
})

test('a list with bad items everywhere names the first few and says there are more', () => {
  const messages = Array.from({ length: 100_000 }, () => ({ role: 'user', content: 5 }))
  const lines = refusal(checkChat, { model: 'm', messages }).split('; ')
  const named = Array.from(
    { length: maxInvalidItems },
    (_unused, index) => `messages[${index}].content: must be string`,
  )
  assert.deepEqual(lines.sort(), [...named, `messages: more invalid items after the first ${maxInvalidItems}`].sort())
})

test('exactly maxInvalidItems bad items are all named, with no "more"', () => {
  const bad = new Set([3, 700, 701, 9_000, 20_000, 30_001, 40_000, 99_999])
  assert.equal(bad.size, maxInvalidItems)
  const messages = Array.from({ length: 100_000 }, (_unused, index) => ({
    role: 'user',
    content: bad.has(index) ? 5 : 'x',
  }))
  const lines = refusal(checkChat, { model: 'm', messages }).split('; ')
  assert.deepEqual(lines.sort(), [...bad].map((index) => `messages[${index}].content: must be string`).sort())
})

test('a Responses input list (string or list) is narrowed the same way', () => {
  const input = Array.from({ length: 50_000 }, (_unused, index) =>
    index === 41_234 ? { role: 'user', content: 7 } : { role: 'user', content: 'x' },
  )
  const message = refusal(checkResponses, { model: 'm', input })
  assert.deepEqual([...new Set(message.match(/input\[\d+\]/g))], ['input[41234]'], message)
})

test('a short list is kept whole, and a long one keeps its bad items with their original indices', () => {
  const short = { model: 'm', messages: [{ role: 'user', content: 5 }] }
  const kept = narrowToInvalidItems(ChatRequestSchema, short, maxInvalidItems).body as typeof short
  assert.equal(kept.messages, short.messages)
  const messages = Array.from({ length: 1_000 }, (_unused, index) => ({
    role: 'user',
    content: index === 640 ? 1 : 'x',
  }))
  const narrowed = narrowToInvalidItems(ChatRequestSchema, { model: 'm', messages }, maxInvalidItems)
  assert.deepEqual((narrowed.body as { messages: unknown[] }).messages, [messages[640]])
  assert.equal(narrowed.toOriginalPath('/messages/0/content'), '/messages/640/content')
  assert.equal(narrowed.toOriginalPath('/temperature'), '/temperature')
  assert.deepEqual(narrowed.truncated, [])
})
