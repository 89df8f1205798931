import { test } from 'node:test'
import assert from 'node:assert/strict'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { encodingForModel, loadTokenizer } from './load-tokenizer.ts'

test('models are counted with their own encoding: cl100k_base for GPT-4, GPT-3.5 and embeddings, else o200k_base', () => {
  for (const model of ['openai/gpt-4', 'gpt-4-turbo', 'gpt-4-0613', 'gpt-3.5-turbo', 'openai/text-embedding-3-small'])
    assert.equal(encodingForModel(model), 'cl100k_base', model)
  for (const model of [
    'openai/gpt-4o',
    'gpt-4o-mini',
    'gpt-4.1',
    'gpt-5',
    'o3-mini',
    'anthropic/claude-sonnet-4',
    'm1',
  ])
    assert.equal(encodingForModel(model), 'o200k_base', model)
})

test('known token counts of both encodings', async () => {
  const o200k = await loadTokenizer('openai/gpt-4o')
  const cl100k = await loadTokenizer('openai/gpt-4')
  assert.equal(o200k.encoding, 'o200k_base')
  assert.equal(cl100k.encoding, 'cl100k_base')
  for (const tokenizer of [o200k, cl100k]) {
    assert.equal(tokenizer.count(''), 0)
    assert.equal(tokenizer.count('Hello, world!'), 4)
    assert.equal(tokenizer.count('tiktoken is great!'), 6)
    assert.equal(tokenizer.count('The quick brown fox jumps over the lazy dog.'), 10)
    assert.equal(tokenizer.count('<|endoftext|>'), 7, 'special-token markup is counted as the text it is')
  }
  // The encodings differ: an emoji is one o200k_base token and two cl100k_base tokens.
  assert.equal(o200k.count('😀'.repeat(1000)), 1000)
  assert.equal(cl100k.count('😀'.repeat(1000)), 2000)
})

test('long runs without whitespace are counted in slices, as the whole run would be', async () => {
  const tokenizer = await loadTokenizer('gpt-4o')
  // Eight "a"s are one o200k_base token; unsliced, a million would take minutes to merge.
  assert.equal(tokenizer.count('a'.repeat(1_000_000)), 125_000)
  // Elsewhere the cost is at most one token per slice boundary and one where the run starts.
  const text = `x ${'ab'.repeat(500)} y`
  const exact = countTokens(text)
  const counted = tokenizer.count(text)
  assert.ok(counted >= exact && counted <= exact + 4, `${counted} tokens, ${exact} unsliced`)
  // A slice boundary never splits a surrogate pair (a lone half would count as a replacement character).
  assert.equal(tokenizer.count(`a${'😀'.repeat(1000)}`), 1001)
})
