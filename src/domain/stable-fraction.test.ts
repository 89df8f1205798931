import { test } from 'node:test'
import assert from 'node:assert/strict'
import { stableFraction } from './stable-fraction.ts'

test('the same text always gives the same fraction, within [0, 1)', () => {
  for (const text of ['', 'a', 'gen-1763800000-AbCdEfGhIjKlMnOpQrSt', 'ü€']) {
    const fraction = stableFraction(text)
    assert.equal(stableFraction(text), fraction)
    assert.ok(fraction >= 0 && fraction < 1, `${text}: ${fraction}`)
  }
})

test('ids differing in one character land far apart', () => {
  const near = ['gen-1-aaaaaaaaaaaaaaaaaaaa', 'gen-1-aaaaaaaaaaaaaaaaaaab', 'gen-1-baaaaaaaaaaaaaaaaaaa'].map(
    stableFraction,
  )
  assert.ok(Math.abs(near[0]! - near[1]!) > 1e-6 && Math.abs(near[0]! - near[2]!) > 1e-6, near.join(', '))
})
