import { test } from 'node:test'
import assert from 'node:assert/strict'
import { signWebhook } from './webhook-signature.ts'

test('matches the Standard Webhooks reference vector', () => {
  const signature = signWebhook(
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    'msg_p5jXN8AQM9LWM0D4loKWxJek',
    1614265330,
    '{"test": 2432232314}',
  )
  assert.equal(signature, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=')
})

test('a secret without the whsec_ prefix is keyed by its UTF-8 bytes, and every input matters', () => {
  const base = signWebhook('plain-secret', 'id', 1, 'body')
  assert.notEqual(signWebhook('plain-secreT', 'id', 1, 'body'), base)
  assert.notEqual(signWebhook('plain-secret', 'id2', 1, 'body'), base)
  assert.notEqual(signWebhook('plain-secret', 'id', 2, 'body'), base)
  assert.notEqual(signWebhook('plain-secret', 'id', 1, 'body!'), base)
})
