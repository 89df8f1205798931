import { test } from 'node:test'
import assert from 'node:assert/strict'
import { JsonMemberScanner } from './json-member-scanner.ts'

function scan(chunks: readonly string[]): { members: [string, unknown][]; elements: unknown[]; events: string[] } {
  const members: [string, unknown][] = []
  const elements: unknown[] = []
  const events: string[] = []
  const scanner = new JsonMemberScanner('requests', {
    onMember: (key, value) => {
      members.push([key, value])
      events.push(`member:${key}`)
    },
    onArrayStart: () => events.push('start'),
    onElement: (value, index) => {
      elements.push(value)
      events.push(`element:${index}`)
    },
  })
  for (const chunk of chunks) scanner.push(chunk)
  scanner.end()
  return { members, elements, events }
}

const body =
  ' { "endpoint" : "/v1/x", "model":"a,b]}", "provider": {"only": ["p"]},\n "requests": [ {"custom_id":"1","body":{"s":"\\"]}, ["}}, {"custom_id":"2","body":{"n":[1,{"a":[]}]}} ] , "callback_url": null } '

test('reports members and streamed elements in order, at every split of the text', () => {
  const whole = scan([body])
  assert.deepEqual(whole.events, [
    'member:endpoint',
    'member:model',
    'member:provider',
    'start',
    'element:0',
    'element:1',
    'member:callback_url',
  ])
  assert.deepEqual(whole.members[1], ['model', 'a,b]}'])
  assert.deepEqual(whole.elements, [
    { custom_id: '1', body: { s: '"]}, [' } },
    { custom_id: '2', body: { n: [1, { a: [] }] } },
  ])
  for (let split = 0; split <= body.length; split++) {
    assert.deepEqual(scan([body.slice(0, split), body.slice(split)]), whole, `split at ${split}`)
  }
})

test('an empty array yields no element; a trailing comma, junk after the object or an unclosed body are malformed', () => {
  assert.deepEqual(scan(['{"requests": []}']).elements, [])
  assert.throws(() => scan(['{"requests": [1,]}']), /requests\[1\] is empty/)
  assert.throws(() => scan(['{"a": 1} x']), /after the top-level object/)
  assert.throws(() => scan(['{"a": [1']), /ends before/)
  assert.throws(() => scan(['[1]']), /must be a JSON object/)
  assert.throws(() => scan(['{"requests": [{"a": }]}']), /Malformed JSON body: requests\[0\]/)
})
