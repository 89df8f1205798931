import { test } from 'node:test'
import assert from 'node:assert/strict'
import { normalizeHosts } from './normalize-hosts.ts'
import { GatewayError } from '../domain/errors.ts'

function refusal(hosts: string[]): string {
  try {
    normalizeHosts(hosts)
  } catch (error) {
    assert.ok(error instanceof GatewayError)
    assert.equal(error.status, 400)
    return error.message
  }
  assert.fail(`expected ${JSON.stringify(hosts)} to be refused`)
}

test('hosts are lowercased, lose a trailing dot and collapse duplicates after normalisation', () => {
  assert.deepEqual(normalizeHosts(['API.Example.com.', 'api.example.com', 'other.example.com', 'OTHER.example.com.']), [
    'api.example.com',
    'other.example.com',
  ])
  assert.deepEqual(normalizeHosts(['127.0.0.1', 'localhost']), ['127.0.0.1', 'localhost'])
})

test('schemes, ports, paths, wildcards and empty values are refused, naming the host', () => {
  for (const host of [
    'https://api.example.com',
    'api.example.com:443',
    'api.example.com/v1',
    '*.example.com',
    '',
    '.',
    'a b.com',
    'user@host.com',
    '-bad.com',
    'a..b',
  ]) {
    const message = refusal(['ok.example.com', host])
    assert.match(message, new RegExp(`hosts\\[1\\] "${host.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`))
  }
})

test('1 to 100 hosts, each up to 254 characters', () => {
  assert.match(refusal([]), /1 to 100/)
  const hundred = Array.from({ length: 100 }, (_, index) => `h${index}.example.com`)
  assert.equal(normalizeHosts(hundred).length, 100)
  assert.match(refusal([...hundred, 'h100.example.com']), /got 101/)
  const label = 'a'.repeat(63)
  const host253 = [label, label, label, 'a'.repeat(61)].join('.')
  assert.equal(host253.length, 253)
  assert.deepEqual(normalizeHosts([`${host253}.`]), [host253], '254 characters with the trailing dot is accepted')
  assert.match(refusal([`${host253}a`]), /longer than 253/)
  assert.match(refusal([`${host253}.ab`]), /longer than 254/)
})
