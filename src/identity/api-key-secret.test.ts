// Stored key hashes are SHA-256 hex of the UTF-8 secret: a key minted before any change to the hashing
// code must still authenticate.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { hashKeySecret } from './api-key-secret.ts'

test('a secret hashes to the SHA-256 hex of its UTF-8 bytes', () => {
  assert.equal(hashKeySecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  assert.equal(hashKeySecret('sk-sy-v1-é'), '338de748435af60e8e29abcd2c9584d6b5ab262202c29dd4c3835926fa55803d')
})
