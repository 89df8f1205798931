import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  assertReadsAsParsed,
  assertStreamReaderAgrees,
  inAnyKeyOrder,
  rawText,
  recordedFrames,
} from '../../../test/support/frame-readers.ts'
import { PlainTextFrameReader, readPlainTextFrame } from './plain-text-frame.ts'

/** What the stream parser reads from a chunk after the first when that is text alone; undefined otherwise. */
function textAlone(data: string): string | undefined {
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const chunk = value as {
    error?: unknown
    usage?: unknown
    choices?: { delta?: Record<string, unknown> | null; finish_reason?: unknown }[]
  }
  if (chunk.error != null || chunk.usage != null) return undefined
  const choice = chunk.choices?.[0]
  if (choice === undefined || choice.finish_reason != null || choice.delta == null) return undefined
  const { content, reasoning, reasoning_content: reasoningContent, tool_calls: toolCalls } = choice.delta
  if (
    (typeof reasoning === 'string' && reasoning !== '') ||
    (typeof reasoningContent === 'string' && reasoningContent !== '')
  )
    return undefined
  if (Array.isArray(toolCalls) && toolCalls.length > 0) return undefined
  return typeof content === 'string' ? content : undefined
}

const openAiFrame = (content: string): string =>
  JSON.stringify({
    id: 'chatcmpl-BX7c2fH0kLqP9aZ3',
    object: 'chat.completion.chunk',
    created: 1747130000,
    model: 'gpt-4o-mini',
    service_tier: 'default',
    system_fingerprint: 'fp_0392822090',
    choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
    usage: null,
    obfuscation: 'x7Q',
  })

test('reads the text of a text-only chunk as OpenAI and the fake upstream send it', () => {
  assert.equal(readPlainTextFrame(openAiFrame('Bonjour, ça va ☕?')), 'Bonjour, ça va ☕?')
  assert.equal(readPlainTextFrame(openAiFrame('')), '')
  assert.equal(readPlainTextFrame('{"id":"c","choices":[{"delta":{"content":"Hi"},"index":0}]}'), 'Hi')
})

test('reads every text-only frame of a recorded OpenAI stream after the first, and no other frame', () => {
  const frames = recordedFrames(new URL('./__transcripts__/plain-text/upstream.sse', import.meta.url))
  const read = frames.map(readPlainTextFrame)
  assert.deepEqual(read, [undefined, ...frames.slice(1).map(textAlone)])
  assert.ok(read.filter((text) => text !== undefined).length >= 3, 'the text frames are read without a parse')
})

test('answers undefined for a frame that holds anything the parser reads', () => {
  const frames = [
    '{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
    '{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}',
    '{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason" : "length"}]}',
    '{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}],"usage":{"prompt_tokens":1}}',
    '{"choices":[{"index":0,"delta":{"content":"Hi"}}],"usage":3}',
    '{"choices":[{"index":0,"delta":{"content":"Hi"}}],"error":"overloaded"}',
    '{"choices":[{"index":0,"delta":{"content":"Hi","reasoning_content":"hmm"}}]}',
    '{"choices":[{"index":0,"delta":{"content":"Hi","tool_calls":[{"index":0}]}}]}',
    '{"choices":[{"index":0,"delta":{"content":"Hi"}},{"index":1,"delta":{"content":"Ho"}}]}',
    '{"choices":[{"index":0,"delta":{"content":"Hi"}}],"choices":[]}',
    '{"choices":[{"index":0,"delta":{"content":"Hi"},"delta":null}]}',
    '{"choices":[{"index":0,"delta":{"content":"line\\nbreak"}}]}',
    '{"id":"a\\"b","choices":[{"index":0,"delta":{"content":"Hi"}}]}',
    '{"meta":{"choices":[{"delta":{"content":"Hi"}}]}}',
    '{"choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": null}]}',
    '{"choices":[{"index":0,"delta":{"content":"tab\there"}}]}',
    '[{"choices":[{"delta":{"content":"Hi"}}]}]',
  ]
  for (const frame of frames) assert.equal(readPlainTextFrame(frame), undefined, frame)
})

/** JSON with `, ` and `: ` between tokens, as Python's json.dumps writes it by default. */
function spaced(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spaced).join(', ')}]`
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([key, entry]) => `${JSON.stringify(key)}: ${spaced(entry)}`)
      .join(', ')}}`
  return JSON.stringify(value)
}

const text = fc.oneof(
  fc.string(),
  fc.string(),
  fc.constantFrom(
    '',
    'say "hi"',
    'a\\b',
    'tab\t',
    'new\nline',
    '\u0000',
    'ça ☕',
    'null',
    '"finish_reason":"stop"',
    '}]}',
  ),
)
const delta = fc.record(
  {
    content: fc.oneof(text, fc.constant(null)),
    role: fc.constant('assistant'),
    refusal: fc.constant(null),
    reasoning_content: fc.oneof(text, fc.constant(null)),
    tool_calls: fc.constant([{ index: 0, function: { arguments: '{}' } }]),
  },
  { requiredKeys: [] },
)
const textOnly = fc.record({ content: text })
const choice = inAnyKeyOrder(
  fc.record(
    {
      index: fc.nat(2),
      delta: fc.oneof(textOnly, textOnly, delta, fc.constant(null)),
      logprobs: fc.constant(null),
      finish_reason: fc.constantFrom(null, null, null, 'stop', 'tool_calls'),
    },
    { requiredKeys: ['delta'] },
  ),
)
const chunk = inAnyKeyOrder(
  fc.record(
    {
      id: fc.oneof(fc.stringMatching(/^[\w-]*$/), fc.string()),
      object: fc.constant('chat.completion.chunk'),
      model: fc.oneof(fc.stringMatching(/^[\w.-]*$/), fc.string()),
      choices: fc.oneof(fc.tuple(choice), fc.array(choice, { maxLength: 2 })),
      usage: fc.constantFrom(null, null, null, { prompt_tokens: 3, completion_tokens: 1 }),
      error: fc.constantFrom(null, null, null, { message: 'overloaded' }, 'overloaded'),
      obfuscation: fc.option(fc.string(), { nil: undefined }),
    },
    { requiredKeys: ['choices'] },
  ),
)

test('whatever it reads is what the parser would read, in any chunk, key order and spacing', () => {
  const frames = fc
    .tuple(chunk, fc.nat(3))
    .map(([value, spacing]) => (spacing === 0 ? spaced(value) : JSON.stringify(value)))
  assertReadsAsParsed(frames, readPlainTextFrame, textAlone)
})

test('reads every compact text-only chunk whose text needs no escape', () => {
  fc.assert(
    fc.property(
      fc.string().filter((content) => JSON.stringify(content) === `"${content}"`),
      fc.stringMatching(/^[\w-]*$/),
      (content, id) => {
        const data = JSON.stringify({
          id,
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
          usage: null,
        })
        assert.equal(readPlainTextFrame(data), content)
      },
    ),
  )
})

type Chunk = { choices?: { delta?: Record<string, unknown> | null; finish_reason?: unknown }[]; [key: string]: unknown }

/** Changes to a chunk around its text: members the parser reads, added after it, and a member dropped before it. */
const variations: ((value: Chunk) => void)[] = [
  () => {},
  (value) => {
    if (value.choices?.[0] !== undefined) value.choices[0].finish_reason = 'stop'
  },
  (value) => {
    value.usage = { prompt_tokens: 3, completion_tokens: 1 }
  },
  (value) => {
    value.error = 'overloaded'
  },
  (value) => {
    const delta = value.choices?.[0]?.delta
    if (typeof delta === 'object' && delta !== null) delta.reasoning_content = 'hmm'
  },
  (value) => {
    value.choices?.push({ delta: { content: 'Ho' } })
  },
  (value) => {
    value.zz = 'x'
  },
  (value) => {
    const first = Object.keys(value)[0]
    if (first !== undefined && first !== 'choices') delete value[first]
  },
]

/** A chunk with the given text in its first choice's delta, where it has one, and one variation. */
function varied(value: object, content: string, variation: number): string {
  const copy = structuredClone(value) as Chunk
  const delta = copy.choices?.[0]?.delta
  if (typeof delta === 'object' && delta !== null) delta.content = content
  variations[variation]!(copy)
  return JSON.stringify(copy)
}

test('a stream reader answers every frame as readPlainTextFrame does, whatever came before it', () => {
  const frame = (base: object) =>
    fc.oneof(
      fc
        .tuple(fc.oneof(text, fc.string({ minLength: 20, maxLength: 40 })), fc.nat(variations.length - 1))
        .map(([content, variation]) => varied(base, content, variation)),
      fc.tuple(text, fc.constant(0)).map(([content]) => varied(base, content, 0)),
      rawText.map((raw) => varied(base, '\u2063', 0).replace('\u2063', () => raw)),
      chunk.map((value) => JSON.stringify(value)),
    )
  const stream = chunk.chain((base) => fc.array(frame(base), { maxLength: 12 }))
  assertStreamReaderAgrees(stream, () => new PlainTextFrameReader(), readPlainTextFrame)
})

test('a stream reader reads the frames of a recorded stream as readPlainTextFrame does', () => {
  const frames = recordedFrames(new URL('./__transcripts__/plain-text/upstream.sse', import.meta.url))
  const reader = new PlainTextFrameReader()
  assert.deepEqual(
    frames.map((data) => reader.read(data)),
    frames.map(readPlainTextFrame),
  )
})
