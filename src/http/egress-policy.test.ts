import { test } from 'node:test'
import assert from 'node:assert/strict'
import { assertEgressAllowed, egressProblem, isInternalAddress } from './egress-policy.ts'

const strict = { allowPrivateNetworks: false }

test('internal addresses are recognised in both families', () => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '::1',
    'fe80::1',
    'fd00::5',
    '::ffff:127.0.0.1',
    '0.0.0.0',
  ]) {
    assert.equal(isInternalAddress(address), true, address)
  }
  for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '172.32.0.1'])
    assert.equal(isInternalAddress(address), false, address)
})

test('schemes other than http(s) are refused even when private networks are allowed', () => {
  assert.match(egressProblem('file:///etc/passwd', { allowPrivateNetworks: true }) ?? '', /scheme file/)
  assert.match(egressProblem('ftp://example.com/x', strict) ?? '', /scheme ftp/)
  assert.match(egressProblem('not a url', strict) ?? '', /not a valid URL/)
})

test('loopback and private hosts are refused unless allowed', async () => {
  assert.match(egressProblem('http://127.0.0.1:8080/x', strict) ?? '', /private, loopback/)
  assert.match(egressProblem('http://[::1]/x', strict) ?? '', /private, loopback/)
  assert.match(egressProblem('http://localhost/x', strict) ?? '', /loopback/)
  assert.equal(egressProblem('http://127.0.0.1:8080/x', { allowPrivateNetworks: true }), null)
  assert.equal(egressProblem('https://example.com/x', strict), null)
  await assert.rejects(assertEgressAllowed('http://10.0.0.1/', strict), /Outbound URL refused/)
  assert.equal((await assertEgressAllowed('http://127.0.0.1:1/', { allowPrivateNetworks: true })).port, '1')
})
